package dev.cohort.clients;

import dev.cohort.api.AbortException;
import dev.cohort.api.NetworkException;
import dev.cohort.clients.Messages.Ack;
import dev.cohort.clients.Messages.Masks;
import dev.cohort.clients.Messages.Open;
import dev.cohort.clients.Messages.Outcome;
import dev.cohort.clients.Messages.Status;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.random.Prg;
import java.time.Duration;
import java.util.Arrays;

/**
 * A device's side of input clients: it waits for the servers' next session, secret-shares its
 * values to them (one message per server, each with only that server's shares) and reads their
 * answers. It never talks to another client and needs no MPC. The session's opening names the
 * suite: over BGW the client deals Shamir shares ({@link BgwSubmissions}); over SPDZ it first asks
 * every server for input masks, checks them and sends every server the same masked bits ({@link
 * SpdzSubmissions}).
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
  private final Masks[] masks;
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
    this.masks = new Masks[n];
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
   * to (the current one, if it is still open), and returns every server's answer. Over SPDZ, throws
   * {@link AbortException} naming the check when the servers' input masks fail it: nothing is
   * submitted then.
   */
  public Receipt submit(long... values) {
    Open open = nextSession();
    Receipt refused = deal(open, values, true);
    return refused != null ? refused : awaitAcks(open.session());
  }

  /**
   * Submits {@code values} as {@link #submit} does, without waiting for the servers' confirmations
   * (a refusal still comes: {@link #awaitOutcome(long)} reports it). Returns the session. What a
   * device that submits and leaves, or a simulation of thousands, uses. Over SPDZ it still waits
   * for its input masks.
   */
  public long send(long... values) {
    Open open = nextSession();
    deal(open, values, false);
    return open.session();
  }

  /**
   * Sends every server its part of a submission of {@code values} to session {@code open}; returns
   * null, or (over SPDZ) the servers' answers when they refused the input masks and nothing was
   * sent.
   */
  private Receipt deal(Open open, long[] values, boolean wantsAck) {
    Shape shape = shape(open.bits());
    if (open.suite().equals("spdz")) {
      return dealSpdz(open.session(), shape, Fields.byName(open.field()), values, wantsAck);
    }
    if (shamir == null || !open.field().equals(field) || shamir.threshold != open.threshold()) {
      field = open.field();
      shamir = new Shamir(Fields.byName(field), links.servers(), open.threshold());
    }
    long[][] shares = BgwSubmissions.deal(shamir, shape, values, prg);
    Arrays.fill(acks, null);
    for (int i = 0; i < shares.length; i++) {
      links.send(i, Messages.submit(open.session(), wantsAck, shape.bits(), shares[i]));
      Arrays.fill(shares[i], 0L);
    }
    submitted = open.session();
    return null;
  }

  /**
   * SPDZ [DDN+16]: asks every server for this session's input masks, checks that they are triples
   * ({@link SpdzSubmissions#masks}) and sends every server the same masked bits.
   */
  private Receipt dealSpdz(long session, Shape shape, Field f, long[] values, boolean wantsAck) {
    shape.check(values);
    int n = links.servers();
    Arrays.fill(acks, null);
    Arrays.fill(masks, null);
    byte[] request = Messages.maskRequest(session);
    for (int i = 0; i < n; i++) {
      links.send(i, request);
    }
    submitted = session;
    boolean granted = true;
    for (int i = 0; i < n; i++) {
      while (!maskedBy(i, session) && !answered(i, session)) {
        read(i);
      }
      granted &= maskedBy(i, session);
    }
    if (!granted) { // refused (the session closed first, say): nothing to submit
      Status[] statuses = new Status[n];
      String[] details = new String[n];
      for (int i = 0; i < n; i++) {
        boolean masked = maskedBy(i, session);
        statuses[i] = masked ? Status.RECEIVED : acks[i].status();
        details[i] = masked ? "masks granted; nothing was submitted" : acks[i].detail();
      }
      return new Receipt(session, statuses, details);
    }
    long[][] shares = new long[n][];
    Canonical canonical = new Canonical(f);
    int words = SpdzSubmissions.maskElements(shape) * f.words();
    for (int i = 0; i < n; i++) {
      Masks m = masks[i];
      if (m.triples() != shape.elements()
          || m.words().length != words
          || !canonical.all(m.words())) {
        throw new AbortException(
            "server "
                + i
                + " sent malformed input masks for session "
                + session
                + " (a cheating or faulty server); nothing was submitted");
      }
      shares[i] = m.words();
    }
    long[] ab = SpdzSubmissions.masks(f, shape.elements(), shares, session);
    long[] bits = SpdzSubmissions.bits(f, shape, values);
    long[] d = SpdzSubmissions.mask(f, bits, ab);
    Arrays.fill(ab, 0L);
    Arrays.fill(bits, 0L);
    byte[] submission = Messages.submit(session, wantsAck, shape.bits(), d);
    Arrays.fill(acks, null);
    for (int i = 0; i < n; i++) {
      links.send(i, submission);
    }
    return null;
  }

  private boolean maskedBy(int server, long session) {
    return masks[server] != null && masks[server].session() == session;
  }

  private boolean answered(int server, long session) {
    return acks[server] != null
        && (acks[server].session() == session || acks[server].session() == -1);
  }

  /** Every server's answer to this client's submission to {@code session}. */
  private Receipt awaitAcks(long session) {
    Status[] statuses = new Status[links.servers()];
    String[] details = new String[links.servers()];
    for (int i = 0; i < statuses.length; i++) {
      while (!answered(i, session)) {
        read(i);
      }
      statuses[i] = acks[i].status();
      details[i] = acks[i].detail();
    }
    return new Receipt(session, statuses, details);
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
          // Server 0's outcome of the last session announces the next one for every server, and
          // the others then send no opening: while server 0 is behind too, wait for it first.
          read(latest[0] == null || latest[0].session() < want ? 0 : i);
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
    if (!opens[0].suite().equals("bgw") && !opens[0].suite().equals("spdz")) {
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
      case Messages.MASKS -> masks[server] = Messages.masks(m);
      case Messages.OUTCOME -> {
        Outcome o = Messages.outcome(m);
        outcomes[server] = o;
        if (server == 0) {
          nextOpened(o.session());
        }
      }
      default ->
          throw new IllegalStateException(
              "server " + server + " sent a message of unknown type " + m[0]);
    }
  }

  /**
   * Server 0's outcome of session {@code closed}: every server closed it and takes submissions to
   * the next one now, with the same settings (the servers' settings do not change while they run).
   */
  private void nextOpened(long closed) {
    for (int i = 0; i < latest.length; i++) {
      Open o = latest[i];
      if (o != null && o.session() <= closed) {
        latest[i] =
            new Open(closed + 1, o.suite(), o.field(), o.parties(), o.threshold(), o.bits());
      }
    }
  }

  @Override
  public void close() {
    links.close();
  }
}
