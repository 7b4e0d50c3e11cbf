package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.clients.Messages.Status;
import dev.cohort.field.Field;
import java.time.Duration;
import java.util.Arrays;

/**
 * Test helper: the steps of an SPDZ client done by hand over a client's links, so that a test can
 * cheat at any of them. Every wait skips the messages it does not look for.
 */
final class SpdzByHand {

  private static final Duration WAIT = Duration.ofSeconds(60);

  private final InMemoryClients.End end;
  private final Field field;
  private final Shape shape;
  private final long[] announced; // per server, the newest session known to take submissions

  SpdzByHand(InMemoryClients.End end, Field field, Shape shape) {
    this.end = end;
    this.field = field;
    this.shape = shape;
    this.announced = new long[end.servers()];
    Arrays.fill(announced, -1);
  }

  /**
   * The next message from {@code server}, noting what it announces: an opening, or (server 0's
   * outcome of a session) the next session at every server.
   */
  private byte[] receive(int server) {
    byte[] m = end.receive(server, WAIT);
    if (Messages.type(m) == Messages.OPEN) {
      announced[server] = Math.max(announced[server], Messages.open(m).session());
    } else if (Messages.type(m) == Messages.OUTCOME && server == 0) {
      long next = Messages.outcome(m).session() + 1;
      for (int i = 0; i < announced.length; i++) {
        announced[i] = Math.max(announced[i], next);
      }
    }
    return m;
  }

  InMemoryClients.End end() {
    return end;
  }

  /** Waits until every server announced a session at least {@code session}; returns it. */
  long awaitOpen(long session) {
    long seen = Long.MAX_VALUE;
    for (int i = 0; i < end.servers(); i++) {
      while (announced[i] < session) {
        receive(announced[0] < session ? 0 : i); // server 0's outcome may announce it for all
      }
      seen = Math.min(seen, announced[i]);
    }
    return seen;
  }

  /** Asks every server for the masks of {@code session}; returns a ‖ b, checked. */
  long[] masks(long session) {
    long[][] shares = new long[end.servers()][];
    for (int i = 0; i < shares.length; i++) {
      end.send(i, Messages.maskRequest(session));
    }
    for (int i = 0; i < shares.length; i++) {
      while (shares[i] == null) {
        byte[] m = receive(i);
        if (Messages.type(m) == Messages.MASKS) {
          shares[i] = Messages.masks(m).words();
        } else if (Messages.type(m) == Messages.ACK) {
          throw new AssertionError("masks refused: " + Messages.ack(m));
        }
      }
    }
    return SpdzSubmissions.masks(field, shape.elements(), shares, session);
  }

  /** The honest submission of {@code values} under {@code masks}. */
  long[] submission(long[] values, long[] masks) {
    return SpdzSubmissions.mask(field, SpdzSubmissions.bits(field, shape, values), masks);
  }

  /** Sends {@code words} to {@code server} for {@code session}; returns its answer. */
  Status send(int server, long session, long[] words) {
    end.send(server, Messages.submit(session, true, shape.bits(), words));
    return ack(server);
  }

  /** Sends {@code words} to servers {@code 0 .. servers-1}, each of which must receive them. */
  void sendReceived(int servers, long session, long[] words) {
    for (int i = 0; i < servers; i++) {
      assertEquals(Status.RECEIVED, send(i, session, words), "server " + i);
    }
  }

  /** The next acknowledgement from {@code server}. */
  Status ack(int server) {
    while (true) {
      byte[] m = receive(server);
      if (Messages.type(m) == Messages.ACK) {
        return Messages.ack(m).status();
      }
    }
  }

  /** The next session outcome from {@code server}. */
  Messages.Outcome outcome(int server) {
    while (true) {
      byte[] m = receive(server);
      if (Messages.type(m) == Messages.OUTCOME) {
        return Messages.outcome(m);
      }
    }
  }
}
