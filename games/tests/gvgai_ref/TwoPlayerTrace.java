// Makes arena's two-player VGDL reference traces with GVGAI's own Java engine
// (not part of arena's build; compiled and run by make_2p_traces.sh).
//
// For every level of one game it plays records with GVGAI's real two-player
// loop: the body of Game.runGame(players, seed) (prepareGame, then gameCycle()
// until the actions run out or the game is over). The two players are
// AbstractMultiPlayers that return the action listed for the current cycle
// when the engine asks them, inside each avatar's update, through
// game.getObservationMulti(playerID), as GVGAI's real loop does. The state is
// read from the Game object before the first cycle and after every cycle.
//
// Usage: java TwoPlayerTrace GAMES_DIR GAME ID OUT_FILE [MIN_LEN MAX_LEN [SEED_BASE]]
// (defaults: 20 200 50000000: each record has 20..200 joint actions drawn
// uniformly, seed SEED_BASE + 10000 * ID + 100 * level + seq).
import core.game.Game;
import core.game.StateObservation;
import core.game.StateObservationMulti;
import core.player.AbstractMultiPlayer;
import core.player.Player;
import core.vgdl.*;
import ontology.Types;
import tools.ElapsedCpuTimer;

import java.io.*;
import java.lang.reflect.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

public class TwoPlayerTrace {
    /** The cycle being played (0-based): the players return their action for it. */
    static int cycle = 0;

    /** A player that returns the action listed for the current cycle. */
    static class Listed extends AbstractMultiPlayer {
        final List<Types.ACTIONS> acts;
        int asked = 0;
        Listed(List<Types.ACTIONS> a) { acts = a; }
        public Types.ACTIONS act(StateObservationMulti s, ElapsedCpuTimer t) {
            asked++;
            return cycle < acts.size() ? acts.get(cycle) : Types.ACTIONS.ACTION_NIL;
        }
    }

    static Field f(Class<?> c, String n) throws Exception {
        while (c != null) {
            try { Field x = c.getDeclaredField(n); x.setAccessible(true); return x; }
            catch (NoSuchFieldException e) { c = c.getSuperclass(); }
        }
        throw new NoSuchFieldException(n);
    }

    static String num(double d) {
        if (d == Math.rint(d) && !Double.isInfinite(d)) return Long.toString((long) d);
        return Double.toString(d);
    }

    static String winner(Types.WINNER w) {
        return w == Types.WINNER.PLAYER_WINS ? "win" : w == Types.WINNER.PLAYER_LOSES ? "loss" : "none";
    }

    static void avatar(StringBuilder sb, ontology.avatar.MovingAvatar av) {
        if (av == null || av.is_disabled()) { sb.append("null"); return; }
        sb.append("{\"type\":\"").append(VGDLRegistry.GetInstance().getRegisteredSpriteKey(av.getType()))
          .append("\",\"x\":").append(av.rect.x).append(",\"y\":").append(av.rect.y)
          .append(",\"orientation\":[").append(num(av.orientation.x())).append(",").append(num(av.orientation.y()))
          .append("],\"resources\":{");
        TreeMap<String, Integer> res = new TreeMap<>();
        for (Map.Entry<Integer, Integer> e : av.resources.entrySet())
            res.put(VGDLRegistry.GetInstance().getRegisteredSpriteKey(e.getKey()), e.getValue());
        boolean first = true;
        for (Map.Entry<String, Integer> e : res.entrySet()) {
            if (!first) sb.append(",");
            first = false;
            sb.append("\"").append(e.getKey()).append("\":").append(e.getValue());
        }
        sb.append("},\"health\":").append(av.healthPoints).append("}");
    }

    /** The state in the 1p records' schema, with score, winner and avatar per player. */
    static String state(Game g, int tick) throws Exception {
        StringBuilder sb = new StringBuilder();
        boolean ended = (Boolean) f(Game.class, "isEnded").get(g);
        int n = g.no_players;
        sb.append("{\"tick\":").append(tick).append(",\"score\":[");
        for (int i = 0; i < n; i++) {
            ontology.avatar.MovingAvatar av = g.getAvatar(i);
            if (i > 0) sb.append(",");
            sb.append(av == null ? "null" : num(av.getScore()));
        }
        sb.append("],\"over\":").append(ended).append(",\"winner\":[");
        for (int i = 0; i < n; i++) {
            ontology.avatar.MovingAvatar av = g.getAvatar(i);
            if (i > 0) sb.append(",");
            sb.append("\"").append(av == null ? "none" : winner(av.getWinState())).append("\"");
        }
        sb.append("],\"block\":").append(g.getBlockSize()).append(",\"avatars\":[");
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(",");
            avatar(sb, g.getAvatar(i));
        }
        sb.append("],\"sprites\":[");
        SpriteGroup[] groups = (SpriteGroup[]) f(Game.class, "spriteGroups").get(g);
        ArrayList<Object[]> all = new ArrayList<>();
        for (SpriteGroup group : groups)
            for (VGDLSprite s : group.getSprites())
                if (!s.is_disabled())
                    all.add(new Object[]{VGDLRegistry.GetInstance().getRegisteredSpriteKey(s.getType()), s.rect.x, s.rect.y});
        all.sort((a, b) -> {
            int c = ((String) a[0]).compareTo((String) b[0]);
            if (c != 0) return c;
            c = Integer.compare((Integer) a[1], (Integer) b[1]);
            if (c != 0) return c;
            return Integer.compare((Integer) a[2], (Integer) b[2]);
        });
        for (int k = 0; k < all.size(); k++) {
            if (k > 0) sb.append(",");
            Object[] o = all.get(k);
            sb.append("[\"").append(o[0]).append("\",").append(o[1]).append(",").append(o[2]).append("]");
        }
        sb.append("]}");
        return sb.toString();
    }

    /** A fresh game as ArcadeMachine builds it, with GVGAI's statics reset as in a new JVM. */
    static Game fresh(String dir, String name, int level, int seed) {
        VGDLFactory.GetInstance().init();
        VGDLRegistry.GetInstance().init();
        core.logging.Logger.getInstance().flushMessages();
        core.termination.Termination.canEnd = true;
        Game g = new VGDLParser().parseGame(dir + "/" + name + ".txt");
        g.buildLevel(dir + "/" + name + "_lvl" + level + ".txt", seed);
        return g;
    }

    static class Run { List<String> states = new ArrayList<>(); int applied; String console; int warnings; }

    /** Plays the listed joint actions with GVGAI's real loop; the console output is captured. */
    static Run play(String dir, String name, int level, int seed, List<List<Types.ACTIONS>> acts) throws Exception {
        Game g = fresh(dir, name, level, seed);
        int n = g.no_players;
        Player[] players = new Player[n];
        for (int i = 0; i < n; i++) players[i] = new Listed(acts.get(i));
        PrintStream out = System.out;
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        System.setOut(new PrintStream(console, true, "UTF-8"));
        Run r = new Run();
        try {
            Method prep = Game.class.getDeclaredMethod("prepareGame", Player[].class, int.class, int.class);
            prep.setAccessible(true);
            Method cyc = Game.class.getDeclaredMethod("gameCycle");
            cyc.setAccessible(true);
            prep.invoke(g, players, seed, -1);
            r.states.add(state(g, 0));
            int len = acts.get(0).size();
            while (r.applied < len && !(Boolean) f(Game.class, "isEnded").get(g)) {
                cycle = r.applied;
                cyc.invoke(g);
                r.applied++;
                if (g.getGameTick() != r.applied - 1) throw new IllegalStateException("tick rule broken");
                r.states.add(state(g, r.applied));
            }
        } finally {
            System.setOut(out);
        }
        r.console = console.toString("UTF-8");
        r.warnings = core.logging.Logger.getInstance().getMessageCount();
        return r;
    }

    static String str(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\""; }

    public static void main(String[] a) throws Exception {
        String dir = a[0], name = a[1];
        int id = Integer.parseInt(a[2]);
        Writer w = new OutputStreamWriter(new FileOutputStream(a[3]), StandardCharsets.UTF_8);
        int minLen = a.length > 5 ? Integer.parseInt(a[4]) : 20;
        int maxLen = a.length > 5 ? Integer.parseInt(a[5]) : 200;
        int seedBase = a.length > 6 ? Integer.parseInt(a[6]) : 50000000;
        for (int level = 0; level < 5; level++)
            for (int seq = 0; seq < 2; seq++) {
                int seed = seedBase + 10000 * id + 100 * level + seq;
                // The players' action sets at the start, NIL included (the avatars' actionsNIL).
                Game g0 = fresh(dir, name, level, seed);
                Method prep = Game.class.getDeclaredMethod("prepareGame", Player[].class, int.class, int.class);
                prep.setAccessible(true);
                int n = g0.no_players;
                Player[] dummies = new Player[n];
                for (int i = 0; i < n; i++) dummies[i] = new Listed(new ArrayList<>());
                prep.invoke(g0, dummies, seed, -1);
                List<List<Types.ACTIONS>> avail = new ArrayList<>();
                for (int i = 0; i < n; i++) avail.add(new ArrayList<>(g0.getAvatar(i).actionsNIL));
                Random ar = new Random(seed * 31L + 7);
                int len = minLen + ar.nextInt(maxLen - minLen + 1);
                List<List<Types.ACTIONS>> acts = new ArrayList<>();
                for (int i = 0; i < n; i++) acts.add(new ArrayList<>());
                for (int k = 0; k < len; k++)
                    for (int i = 0; i < n; i++) acts.get(i).add(avail.get(i).get(ar.nextInt(avail.get(i).size())));
                Run r = null;
                for (int attempt = 0; attempt < 5; attempt++) {
                    r = play(dir, name, level, seed, acts);
                    // GVGAI's time rule replaces a late action by NIL and says so on the console.
                    if (!r.console.contains("Overspent") && !r.console.contains("Too long")) break;
                    r = null;
                }
                if (r == null) throw new IllegalStateException(name + " level " + level + ": the players were timed out 5 times");
                Run again = play(dir, name, level, seed, acts);
                boolean same = again.states.equals(r.states);
                StringBuilder sb = new StringBuilder();
                sb.append("{\"game\":").append(str(name)).append(",\"level\":").append(level)
                  .append(",\"kind\":\"random\",\"seq\":").append(seq).append(",\"seed\":").append(seed)
                  .append(",\"replay_identical\":").append(same).append(",\"warnings\":").append(r.warnings)
                  .append(",\"actions\":[");
                for (int k = 0; k < r.applied; k++) {
                    if (k > 0) sb.append(",");
                    sb.append("[");
                    for (int i = 0; i < n; i++) {
                        if (i > 0) sb.append(",");
                        sb.append("\"").append(acts.get(i).get(k).toString().replace("ACTION_", "")).append("\"");
                    }
                    sb.append("]");
                }
                sb.append("],\"states\":[").append(String.join(",", r.states)).append("]}\n");
                w.write(sb.toString());
                w.flush();
            }
        w.close();
    }
}
