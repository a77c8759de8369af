// Times GVGAI's own forward model: per game, level 0, how many
// StateObservation.copy() + advance(random action) a second it does.
//
// Compile and run against a GVGAI checkout (see README.md):
//   javac -cp GVGAI_CLASSES -d OUT ForwardModelSpeed.java
//   java -cp GVGAI_CLASSES:OUT ForwardModelSpeed SECONDS GAME_FILE LEVEL_FILE [WARMUP [ROUND]]
//
// Method (the same as `cargo run --release -p games --example vgdl_speed`):
// the level is built with seed 0; the state starts as the game's
// observation; each step copies the current state, advances the copy with
// an action drawn uniformly (java.util.Random seeded 1) from the avatar's
// actions without NIL (getAvailableActions()), and the copy becomes the
// current state; a state that is over is replaced by the start state. The
// same loop first runs for WARMUP seconds (default SECONDS) untimed (JIT
// warm-up, as GVGAI warms a game up before play), then for SECONDS timed.
// With ROUND > 0 the timed part is instead whole rounds of the same ROUND
// steps (rounded up to 16), each from the start state with the action
// Random reseeded 1, until SECONDS have passed (`vgdl_speed --round
// ROUND` does the same): both sides then time the same actions from the
// same state, where a plain timed loop times whatever part of the game
// the warm-up left it in. Prints one line per game:
// `NAME<TAB>copies per second<TAB>steps timed<TAB>restarts`.

import core.game.Game;
import core.game.StateObservation;
import core.vgdl.VGDLFactory;
import core.vgdl.VGDLParser;
import core.vgdl.VGDLRegistry;
import ontology.Types;

import java.io.File;
import java.util.ArrayList;
import java.util.Random;

public class ForwardModelSpeed {

    public static void main(String[] args) {
        if (args.length < 3 || args.length > 5) {
            System.err.println("usage: ForwardModelSpeed SECONDS GAME_FILE LEVEL_FILE [WARMUP [ROUND]]");
            System.exit(2);
        }
        double seconds = Double.parseDouble(args[0]);
        double warmup = args.length > 3 ? Double.parseDouble(args[3]) : seconds;
        long round = args.length > 4 ? (Long.parseLong(args[4]) + 15) / 16 * 16 : 0;
        String name = new File(args[1]).getName().replaceFirst("\\.txt$", "");
        try {
            measure(name, args[1], args[2], seconds, warmup, round);
        } catch (Throwable t) {
            System.out.println(name + "\tERROR\t" + t);
        }
        System.out.flush();
    }

    private static void measure(String name, String gameFile, String levelFile,
                                double seconds, double warmup, long round) {
        VGDLFactory.GetInstance().init();
        VGDLRegistry.GetInstance().init();
        Game game = new VGDLParser().parseGame(gameFile);
        game.buildLevel(levelFile, 0);
        StateObservation start = game.getObservation();
        ArrayList<Types.ACTIONS> actions = start.getAvailableActions();
        if (actions.isEmpty()) {
            actions.add(Types.ACTIONS.ACTION_NIL);
        }
        Random rnd = new Random(1);
        run(start, actions, rnd, warmup, 0);
        long[] r = run(start, actions, rnd, seconds, round);
        double rate = r[0] / (r[2] / 1e9);
        System.out.printf("%s\t%.0f\t%d\t%d%n", name, rate, r[0], r[1]);
    }

    /** Runs the loop for `seconds` (in whole rounds of `round` steps from
     *  the start, `rnd` reseeded 1 each, when `round` > 0); returns
     *  {steps, restarts, nanoseconds}. */
    private static long[] run(StateObservation start, ArrayList<Types.ACTIONS> actions,
                              Random rnd, double seconds, long round) {
        long limit = (long) (seconds * 1e9);
        long t0 = System.nanoTime();
        long now = t0;
        long steps = 0;
        long restarts = 0;
        StateObservation cur = start;
        while (now - t0 < limit || (round > 0 && steps % round != 0)) {
            if (round > 0 && steps % round == 0) {
                rnd.setSeed(1);
                cur = start;
            }
            for (int k = 0; k < 16; k++) {
                StateObservation next = cur.copy();
                next.advance(actions.get(rnd.nextInt(actions.size())));
                steps++;
                if (next.isGameOver()) {
                    cur = start;
                    restarts++;
                } else {
                    cur = next;
                }
            }
            now = System.nanoTime();
        }
        return new long[]{steps, restarts, now - t0};
    }
}
