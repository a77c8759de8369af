// Times GVGAI's own forward model: per game, level 0, how many
// StateObservation.copy() + advance(random action) a second it does.
//
// Compile and run against a GVGAI checkout (see README.md):
//   javac -cp GVGAI_CLASSES -d OUT ForwardModelSpeed.java
//   java -cp GVGAI_CLASSES:OUT ForwardModelSpeed SECONDS GAME_FILE LEVEL_FILE [WARMUP]
//
// Method (the same as `cargo run --release -p games --example vgdl_speed`):
// the level is built with seed 0; the state starts as the game's
// observation; each step copies the current state, advances the copy with
// an action drawn uniformly (java.util.Random seeded 1) from the avatar's
// actions without NIL (getAvailableActions()), and the copy becomes the
// current state; a state that is over is replaced by the start state. The
// same loop first runs for WARMUP seconds (default SECONDS) untimed (JIT
// warm-up, as GVGAI warms a game up before play), then for SECONDS timed. Prints one line per game:
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
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: ForwardModelSpeed SECONDS GAME_FILE LEVEL_FILE [WARMUP]");
            System.exit(2);
        }
        double seconds = Double.parseDouble(args[0]);
        double warmup = args.length > 3 ? Double.parseDouble(args[3]) : seconds;
        String name = new File(args[1]).getName().replaceFirst("\\.txt$", "");
        try {
            measure(name, args[1], args[2], seconds, warmup);
        } catch (Throwable t) {
            System.out.println(name + "\tERROR\t" + t);
        }
        System.out.flush();
    }

    private static void measure(String name, String gameFile, String levelFile,
                                double seconds, double warmup) {
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
        run(start, actions, rnd, warmup);
        long[] r = run(start, actions, rnd, seconds);
        double rate = r[0] / (r[2] / 1e9);
        System.out.printf("%s\t%.0f\t%d\t%d%n", name, rate, r[0], r[1]);
    }

    /** Runs the loop for `seconds`; returns {steps, restarts, nanoseconds}. */
    private static long[] run(StateObservation start, ArrayList<Types.ACTIONS> actions,
                              Random rnd, double seconds) {
        long limit = (long) (seconds * 1e9);
        long t0 = System.nanoTime();
        long now = t0;
        long steps = 0;
        long restarts = 0;
        StateObservation cur = start;
        while (now - t0 < limit) {
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
