// A random agent for arena, speaking the line-JSON protocol arena-jsonl/2.
//
// Works for every game: it picks one of the action names the harness lists
// in each request's "legal" field. No JSON library is needed for that; a
// real agent would parse "state" with one (e.g. nlohmann/json). Debug output
// goes to stderr, which arena keeps in results/<run>/logs/.
//
// Build: g++ -O2 -std=c++17 -o random_agent random_agent.cpp

#include <iostream>
#include <random>
#include <string>
#include <vector>

// The string value of "key" at the top of a message (first occurrence).
static std::string string_field(const std::string& msg, const std::string& key) {
    std::string pat = "\"" + key + "\":\"";
    size_t i = msg.find(pat);
    if (i == std::string::npos) return "";
    i += pat.size();
    size_t j = msg.find('"', i);
    return j == std::string::npos ? "" : msg.substr(i, j - i);
}

// The strings of the top-level "legal" array (it comes after "state").
static std::vector<std::string> legal_actions(const std::string& msg) {
    std::vector<std::string> out;
    size_t i = msg.rfind("\"legal\":[");
    if (i == std::string::npos) return out;
    i += 9;
    while (i < msg.size() && msg[i] != ']') {
        if (msg[i] == '"') {
            size_t j = msg.find('"', i + 1);
            if (j == std::string::npos) break;
            out.push_back(msg.substr(i + 1, j - i - 1));
            i = j + 1;
        } else {
            ++i;
        }
    }
    return out;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::mt19937 rng(12345);
    std::string line;
    while (std::getline(std::cin, line)) {
        std::string type = string_field(line, "type");
        if (type == "start") {
            std::cerr << "playing " << string_field(line, "game") << "\n";
            std::cout << "{\"type\":\"ready\"}" << std::endl;  // endl flushes
        } else if (type == "act") {
            std::vector<std::string> legal = legal_actions(line);
            if (legal.empty()) {
                std::cerr << "no legal action listed\n";
                return 1;
            }
            std::uniform_int_distribution<size_t> pick(0, legal.size() - 1);
            std::cout << "{\"action\":\"" << legal[pick(rng)] << "\"}" << std::endl;
        } else if (type == "end") {
            std::cerr << "game over: " << string_field(line, "result") << "\n";
            break;
        }
    }
    return 0;
}
