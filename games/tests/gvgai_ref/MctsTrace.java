// Makes single-player reference traces of games played by GVGAI's own
// sampleMCTS agent (not part of arena's build; see README.md beside it).
//
// Phase 1 plays GVGAI's real game loop, asking sampleMCTS for each action
// on the game's observation (its forward model), until the game is over or
// GVGAI's 2000-tick cap ends it. Phase 2 plays the same seed and the
// recorded actions again in a fresh game with a player that only returns
// the listed actions (no forward model use: effects such as pullWithIt
// share state with the forward model, so phase 1's own states are not
// reproducible from seed and actions), and records its states; phase 2 is
// played twice and `replay_identical` says whether both gave the same.
//
// Usage (from GVGAI's folder): java MctsTrace GAMES_DIR NAME ID BUDGET_MS OUT
import core.game.Game;
import core.vgdl.*;
import core.player.AbstractPlayer;
import core.player.Player;
import core.game.StateObservation;
import ontology.Types;
import tools.ElapsedCpuTimer;
import java.io.*;
import java.util.*;
import java.lang.reflect.*;

public class MctsTrace {
    /** Returns the listed actions in turn (NIL when they run out). */
    static class Listed extends AbstractPlayer {
        final List<Types.ACTIONS> acts;
        int i = 0;
        Listed(List<Types.ACTIONS> a) { acts = a; }
        public Types.ACTIONS act(StateObservation s, ElapsedCpuTimer t) {
            return i < acts.size() ? acts.get(i++) : Types.ACTIONS.ACTION_NIL;
        }
    }

    static Field field(Class<?> c, String n) throws Exception {
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

    static boolean ended(Game g) throws Exception { return (Boolean) field(Game.class, "isEnded").get(g); }

    /** The state in the public traces' schema (shared/data/vgdl/README.md). */
    static String state(Game g, int tick) throws Exception {
        StringBuilder sb = new StringBuilder();
        ontology.avatar.MovingAvatar av = g.getAvatar(0);
        String winner = "none";
        double score = 0;
        if (av != null) {
            score = av.getScore();
            Types.WINNER w = av.getWinState();
            winner = w == Types.WINNER.PLAYER_WINS ? "win" : w == Types.WINNER.PLAYER_LOSES ? "loss" : "none";
        }
        sb.append("{\"tick\":").append(tick).append(",\"score\":").append(num(score))
          .append(",\"over\":").append(ended(g)).append(",\"winner\":\"").append(winner)
          .append("\",\"block\":").append(g.getBlockSize()).append(",\"avatar\":");
        if (av == null || av.is_disabled()) sb.append("null");
        else {
            sb.append("{\"x\":").append(av.rect.x).append(",\"y\":").append(av.rect.y)
              .append(",\"orientation\":[").append(num(av.orientation.x())).append(",")
              .append(num(av.orientation.y())).append("],\"resources\":{");
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
        sb.append(",\"sprites\":[");
        SpriteGroup[] groups = (SpriteGroup[]) field(Game.class, "spriteGroups").get(g);
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
        return sb.append("]}").toString();
    }

    /** A fresh game of `level`, statics reset as in a new JVM. */
    static Game fresh(String dir, String name, int level, int seed) {
        VGDLFactory.GetInstance().init();
        VGDLRegistry.GetInstance().init();
        core.logging.Logger.getInstance().flushMessages();
        core.termination.Termination.canEnd = true;
        Game g = new VGDLParser().parseGame(dir + "/" + name + ".txt");
        g.buildLevel(dir + "/" + name + "_lvl" + level + ".txt", seed);
        return g;
    }

    static Method method(String n, Class<?>... args) throws Exception {
        Method m = Game.class.getDeclaredMethod(n, args);
        m.setAccessible(true);
        return m;
    }

    /** Whether state `tick` of a game that lasted `last` ticks is kept. */
    static boolean kept(int tick, int last) { return tick < 5 || tick % 10 == 0 || tick == last; }

    /** Phase 2: the states of the recorded actions replayed. */
    static List<String> replay(String dir, String name, int level, int seed, List<Types.ACTIONS> acts) throws Exception {
        Game g = fresh(dir, name, level, seed);
        method("prepareGame", Player[].class, int.class, int.class).invoke(g, new Player[]{new Listed(acts)}, seed, -1);
        Method cycle = method("gameCycle");
        List<String> states = new ArrayList<>();
        List<Integer> ticks = new ArrayList<>();
        states.add(state(g, 0));
        ticks.add(0);
        int applied = 0;
        while (applied < acts.size() && !ended(g)) {
            cycle.invoke(g);
            applied++;
            states.add(state(g, applied));
            ticks.add(applied);
        }
        List<String> out = new ArrayList<>();
        for (int k = 0; k < states.size(); k++) if (kept(ticks.get(k), applied)) out.add(states.get(k));
        return out;
    }

    public static void main(String[] a) throws Exception {
        String dir = a[0], name = a[1];
        int id = Integer.parseInt(a[2]);
        long budget = Long.parseLong(a[3]);
        int level = id % 5;
        int seed = 30000000 + 10000 * id + 100 * level;
        // Phase 1: sampleMCTS plays the real game.
        Game g = fresh(dir, name, level, seed);
        List<Types.ACTIONS> acts = new ArrayList<>();
        method("prepareGame", Player[].class, int.class, int.class).invoke(g, new Player[]{new Listed(acts)}, seed, -1);
        Method cycle = method("gameCycle");
        ElapsedCpuTimer init = new ElapsedCpuTimer();
        init.setMaxTimeMillis(1000);
        AbstractPlayer mcts = new tracks.singlePlayer.advanced.sampleMCTS.Agent(g.getObservation(), init);
        while (!ended(g)) {
            ElapsedCpuTimer t = new ElapsedCpuTimer();
            t.setMaxTimeMillis(budget);
            acts.add(mcts.act(g.getObservation(), t));
            cycle.invoke(g);
        }
        // Phase 2, twice.
        List<String> states = replay(dir, name, level, seed, acts);
        boolean same = states.equals(replay(dir, name, level, seed, acts));
        int applied = 0;
        StringBuilder as = new StringBuilder();
        for (String s : states) applied = Math.max(applied, Integer.parseInt(s.substring(8, s.indexOf(','))));
        for (int k = 0; k < applied; k++) {
            if (k > 0) as.append(",");
            as.append("\"").append(acts.get(k).toString().replace("ACTION_", "")).append("\"");
        }
        try (PrintWriter w = new PrintWriter(new FileWriter(a[4]))) {
            w.println("{\"game\":\"" + name + "\",\"level\":" + level + ",\"kind\":\"mcts\",\"seq\":0,\"seed\":" + seed
                + ",\"replay_identical\":" + same + ",\"actions\":[" + as + "],\"states\":[" + String.join(",", states) + "]}");
        }
    }
}
