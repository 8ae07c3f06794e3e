package org.softrnic.emulator.soak;

/** {@code Soak responder ROCE_PORT} or {@code Soak requester ROCE_PORT OOB_PORT MINUTES}: scripts/soak starts both. */
public final class Soak {
    private Soak() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("responder")) {
            new SoakResponder().run(Integer.parseInt(args[1]));
        } else if (args.length == 4 && args[0].equals("requester")) {
            System.exit(new SoakRequester().run(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3])));
        } else {
            System.err.println("usage: Soak responder ROCE_PORT | Soak requester ROCE_PORT OOB_PORT MINUTES");
            System.exit(2);
        }
    }
}
