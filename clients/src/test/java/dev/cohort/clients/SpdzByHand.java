package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.clients.Messages.Status;
import dev.cohort.field.Field;
import java.time.Duration;

/**
 * Test helper: the steps of an SPDZ client done by hand over a client's links, so that a test can
 * cheat at any of them. Every wait skips the messages it does not look for.
 */
final class SpdzByHand {

  private static final Duration WAIT = Duration.ofSeconds(60);

  private final InMemoryClients.End end;
  private final Field field;
  private final Shape shape;

  SpdzByHand(InMemoryClients.End end, Field field, Shape shape) {
    this.end = end;
    this.field = field;
    this.shape = shape;
  }

  InMemoryClients.End end() {
    return end;
  }

  /** Waits until every server announced a session at least {@code session}; returns it. */
  long awaitOpen(long session) {
    long seen = -1;
    for (int i = 0; i < end.servers(); i++) {
      while (true) {
        byte[] m = end.receive(i, WAIT);
        if (Messages.type(m) == Messages.OPEN && Messages.open(m).session() >= session) {
          seen = Messages.open(m).session();
          break;
        }
      }
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
        byte[] m = end.receive(i, WAIT);
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
      byte[] m = end.receive(server, WAIT);
      if (Messages.type(m) == Messages.ACK) {
        return Messages.ack(m).status();
      }
    }
  }

  /** The next session outcome from {@code server}. */
  Messages.Outcome outcome(int server) {
    while (true) {
      byte[] m = end.receive(server, WAIT);
      if (Messages.type(m) == Messages.OUTCOME) {
        return Messages.outcome(m);
      }
    }
  }
}
