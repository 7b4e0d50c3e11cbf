package dev.cohort.clients;

import dev.cohort.api.NetworkException;
import dev.cohort.clients.Messages.Ack;
import dev.cohort.clients.Messages.Open;
import dev.cohort.clients.Messages.Outcome;
import dev.cohort.clients.Messages.Status;
import dev.cohort.field.Fields;
import dev.cohort.random.Prg;
import java.time.Duration;
import java.util.Arrays;

/**
 * A device's side of input clients: it waits for the servers' next session, secret-shares its
 * values to them (one message per server, each with only that server's shares) and reads their
 * answers. It never talks to another client and needs no MPC.
 *
 * <pre>{@code
 * try (Client c = Client.over(links, Duration.ofSeconds(30))) {
 *   Client.Receipt r = c.submit(17);          // one value, in the session's declared range
 *   Client.Counted k = c.awaitOutcome(r);      // after the session: counted, and by how many
 * }
 * }</pre>
 *
 * <p>Not thread-safe: one thread per client.
 */
public final class Client implements AutoCloseable {

  private static final long POLL_NANOS = 100_000_000L; // how often a waiting client looks at all

  private final ServerLinks links;
  private final Duration timeout;
  private final Prg prg;
  private final Open[] latest; // the newest session opening each server announced
  private final Ack[] acks;
  private final Outcome[] outcomes;
  private long submitted = -1;
  private Shamir shamir; // for the sessions' field and threshold
  private String field;
  private Shape shape;

  private Client(ServerLinks links, Duration timeout, Prg prg) {
    this.links = links;
    this.timeout = timeout;
    this.prg = prg;
    int n = links.servers();
    this.latest = new Open[n];
    this.acks = new Ack[n];
    this.outcomes = new Outcome[n];
  }

  /** A client over connected {@code links}; {@code timeout} bounds every wait for a server. */
  public static Client over(ServerLinks links, Duration timeout) {
    return new Client(links, timeout, Prg.secure());
  }

  /** What the servers answered to a submission. */
  public record Receipt(long session, Status[] statuses, String[] details) {

    /** True when every server received the submission in time. */
    public boolean received() {
      for (Status s : statuses) {
        if (s != Status.RECEIVED) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String toString() {
      return "session " + session + ": " + Arrays.toString(statuses);
    }
  }

  /** Whether a session counted this client's submission, and how many it counted. */
  public record Counted(long session, boolean counted, int contributors, String detail) {}

  /**
   * Submits {@code values} to the next session that opens after the last one this client submitted
   * to (the current one, if it is still open), and returns every server's answer.
   */
  public Receipt submit(long... values) {
    Open open = deal(values, true);
    Status[] statuses = new Status[links.servers()];
    String[] details = new String[links.servers()];
    for (int i = 0; i < statuses.length; i++) {
      while (acks[i] == null || acks[i].session() != open.session() && acks[i].session() != -1) {
        read(i);
      }
      statuses[i] = acks[i].status();
      details[i] = acks[i].detail();
    }
    return new Receipt(open.session(), statuses, details);
  }

  /**
   * Submits {@code values} as {@link #submit} does, without waiting for the servers' confirmations
   * (a refusal still comes: {@link #awaitOutcome(long)} reports it). Returns the session. What a
   * device that submits and leaves, or a simulation of thousands, uses.
   */
  public long send(long... values) {
    return deal(values, false).session();
  }

  private Open deal(long[] values, boolean wantsAck) {
    Open open = nextSession();
    if (shamir == null || !open.field().equals(field) || shamir.threshold != open.threshold()) {
      field = open.field();
      shamir = new Shamir(Fields.byName(field), links.servers(), open.threshold());
    }
    Shape shape = shape(open.bits());
    long[][] shares = BgwSubmissions.deal(shamir, shape, values, prg);
    Arrays.fill(acks, null);
    for (int i = 0; i < shares.length; i++) {
      links.send(i, Messages.submit(open.session(), wantsAck, shape.bits(), shares[i]));
      Arrays.fill(shares[i], 0L);
    }
    submitted = open.session();
    return open;
  }

  private Shape shape(int[] bits) {
    if (shape == null || !Arrays.equals(shape.bits(), bits)) {
      shape = new Shape(bits);
    }
    return shape;
  }

  /** Waits for the servers' word on the session of {@code receipt} (server 0's). */
  public Counted awaitOutcome(Receipt receipt) {
    return awaitOutcome(receipt.session());
  }

  /**
   * Waits for server 0's word on session {@code session}: the outcome once the session ran, or its
   * refusal of this client's submission.
   */
  public Counted awaitOutcome(long session) {
    long until = System.nanoTime() + timeout.toNanos();
    while (outcomes[0] == null || outcomes[0].session() < session) {
      if (acks[0] != null && acks[0].session() == session && acks[0].status() != Status.RECEIVED) {
        return new Counted(session, false, 0, "refused: " + acks[0].status().meaning);
      }
      for (int i = 1; i < latest.length; i++) { // a server that failed is named at once
        for (byte[] m = links.poll(i); m != null; m = links.poll(i)) {
          dispatch(i, m);
        }
      }
      long left = until - System.nanoTime();
      if (left <= 0) {
        throw new NetworkException(
            "server 0 gave no outcome of session " + session + " within " + timeout);
      }
      byte[] m = pollFor(0, Math.min(left, POLL_NANOS));
      if (m != null) {
        dispatch(0, m);
      }
    }
    Outcome o = outcomes[0];
    return new Counted(o.session(), o.counted(), o.contributors(), o.detail());
  }

  /** The newest session, newer than the last submitted to, that every server announced. */
  private Open nextSession() {
    long want = submitted + 1;
    for (int i = 0; i < latest.length; i++) {
      for (byte[] m = links.poll(i); m != null; m = links.poll(i)) {
        dispatch(i, m); // what arrived while this client was idle: the newest session counts
      }
    }
    while (true) {
      long newest = -1;
      for (int i = 0; i < latest.length; i++) {
        while (latest[i] == null || latest[i].session() < want) {
          read(i);
        }
        newest = Math.max(newest, latest[i].session());
      }
      boolean same = true;
      for (Open o : latest) {
        same &= o.session() == newest;
      }
      if (same) {
        check(latest);
        return latest[0];
      }
      want = newest;
    }
  }

  private void check(Open[] opens) {
    for (int i = 1; i < opens.length; i++) {
      if (!opens[i].field().equals(opens[0].field())
          || opens[i].threshold() != opens[0].threshold()
          || opens[i].parties() != opens[0].parties()
          || !Arrays.equals(opens[i].bits(), opens[0].bits())
          || !opens[i].suite().equals(opens[0].suite())) {
        throw new IllegalStateException(
            "servers 0 and " + i + " announce different session settings; they are misconfigured");
      }
    }
    if (opens[0].parties() != links.servers()) {
      throw new IllegalStateException(
          "the servers run with "
              + opens[0].parties()
              + " parties but this client knows "
              + links.servers());
    }
    if (!opens[0].suite().equals("bgw")) {
      throw new IllegalStateException("the servers run suite " + opens[0].suite());
    }
  }

  /** The next message from {@code server} within {@code nanos}, or null. */
  private byte[] pollFor(int server, long nanos) {
    try {
      return links.receive(server, Duration.ofNanos(nanos));
    } catch (NetworkException e) {
      byte[] m = links.poll(server); // throws again if the server closed; null on a timeout
      return m;
    }
  }

  private void read(int server) {
    dispatch(server, links.receive(server, timeout));
  }

  private void dispatch(int server, byte[] m) {
    switch (Messages.type(m)) {
      case Messages.OPEN -> {
        Open o = Messages.open(m);
        if (latest[server] == null || o.session() > latest[server].session()) {
          latest[server] = o;
        }
      }
      case Messages.ACK -> acks[server] = Messages.ack(m);
      case Messages.OUTCOME -> outcomes[server] = Messages.outcome(m);
      default ->
          throw new IllegalStateException(
              "server " + server + " sent a message of unknown type " + m[0]);
    }
  }

  @Override
  public void close() {
    links.close();
  }
}
