package dev.cohort.clients;

import dev.cohort.api.Computation;
import dev.cohort.clients.Messages.Status;
import dev.cohort.clients.Messages.Submit;
import dev.cohort.engine.Engine;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.net.Channel;
import dev.cohort.random.Prg;
import dev.cohort.suite.Shares;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One compute server's side of input clients over BGW or SPDZ: it opens sessions, takes the
 * clients' submissions from its {@link ClientPort}, agrees with the other servers on the
 * submissions every server received, checks them without learning them ({@link BgwSubmissions},
 * {@link SpdzSubmissions}), and runs a computation on the valid ones. Every server of the mesh runs
 * one, session for session.
 *
 * <p>Over SPDZ a client first asks every server for input masks; the servers grant them together
 * while the session is open ({@link MaskRounds}) and take a submission only from a client whose
 * masks were granted ({@link SpdzSessions}). The running sums carry their MAC shares, so they are
 * bound to the preprocessing's MAC key: keep the dealing while the state lives.
 *
 * <p>A session closes when this server has {@code closeAfter} submissions or its deadline passes,
 * whichever comes first; it takes exactly the submissions that every server had received by then
 * and that pass the check, in ascending client id. Those that fail are left out and counted by
 * reason ({@link Exclusion}); they change nothing else. Across sessions the server keeps the
 * running sum of every column as shares, saved after every session ({@link ServerState}), and
 * releases a session's result only after every server saved it: a server restarted from its state
 * neither loses nor counts twice a session whose result was released.
 *
 * <p>Threads: transport threads call the {@link ClientEvents} methods; one thread calls {@link
 * #runSession} again and again.
 */
public final class InputServer implements ClientEvents {

  private static final Logger log = LoggerFactory.getLogger(InputServer.class);

  private final Engine engine;
  private final ServerRounds rounds;
  private final Field field;
  private final int threshold;
  private final Shape shape;
  private final BgwSessions bgw; // null over SPDZ
  private final SpdzSessions spdz; // null over BGW
  private final int words;
  private final Canonical canonical;
  private final Duration deadline;
  private volatile int closeAfter;
  private final ServerState state;
  private final ServerStats stats;
  private final Prg prg = Prg.secure();
  private final String settings;
  private volatile ClientPort port;
  // The session that takes submissions: the running one, or from the moment one closes the next
  // (early submissions wait there for it to run). Null before the first session.
  private volatile SessionInbox open;
  private volatile long lastClosed = -1;
  // The clients server 0 told of the next session with the last session's outcome (the last
  // session's candidates, the same at every server): its opening is not sent to them again.
  private int[] informed = new int[0];
  private boolean started;

  private InputServer(Builder b) {
    this.engine = b.engine;
    this.rounds = new ServerRounds(b.channel);
    this.field = engine.suite().field();
    int n = b.channel.parties();
    this.shape = b.shape;
    if (b.spdz) {
      if (b.threshold != 0) {
        throw new IllegalArgumentException(
            "SPDZ has no threshold (any number of servers but one may be corrupt)");
      }
      this.threshold = 0;
      this.spdz = new SpdzSessions(engine, rounds, shape, b.channel.myId(), prg);
      this.words = SpdzSubmissions.elements(shape) * field.words();
    } else {
      this.threshold = b.threshold == 0 ? (n - 1) / 2 : b.threshold;
      this.spdz = null;
      this.words = BgwSubmissions.elements(shape) * field.words();
    }
    this.canonical = new Canonical(field);
    this.bgw =
        b.spdz
            ? null
            : new BgwSessions(rounds, new Shamir(field, n, threshold), shape, canonical, prg);
    this.deadline = b.deadline;
    this.closeAfter = b.closeAfter;
    // over SPDZ the running sums carry MAC shares: share words, then MAC words
    this.state = ServerState.load(b.state, shape.columns() * field.words() * (b.spdz ? 2 : 1));
    this.stats = b.stats == null ? new ServerStats() : b.stats;
    this.settings =
        "suite="
            + suiteName()
            + " field="
            + field.name()
            + " parties="
            + n
            + " threshold="
            + threshold
            + " shape="
            + java.util.Arrays.toString(shape.bits());
  }

  /**
   * A BGW input server over {@code engine} (a BGW suite) and its mesh {@code channel}, for
   * submissions of {@code shape}.
   */
  public static Builder bgw(Engine engine, Channel channel, Shape shape) {
    return new Builder(engine, channel, shape, false);
  }

  /**
   * An SPDZ input server over {@code engine} (an SPDZ suite, whose preprocessing also supplies the
   * clients' input masks) and its mesh {@code channel}, for submissions of {@code shape}. Secure
   * against any number of corrupt servers but one (with abort) and against corrupt clients.
   */
  public static Builder spdz(Engine engine, Channel channel, Shape shape) {
    return new Builder(engine, channel, shape, true);
  }

  private String suiteName() {
    return spdz == null ? "bgw" : "spdz";
  }

  /** The settings of an input server; every server must use the same ones. */
  public static final class Builder {
    private final Engine engine;
    private final Channel channel;
    private final Shape shape;
    private final boolean spdz;
    private int threshold;
    private Duration deadline = Duration.ofSeconds(10);
    private int closeAfter = Integer.MAX_VALUE;
    private Path state;
    private ServerStats stats;

    private Builder(Engine engine, Channel channel, Shape shape, boolean spdz) {
      this.engine = Objects.requireNonNull(engine);
      this.channel = Objects.requireNonNull(channel);
      this.shape = Objects.requireNonNull(shape);
      this.spdz = spdz;
    }

    /** The BGW threshold t; 0 (the default) for the suite's default, (n - 1) / 2. Not for SPDZ. */
    public Builder threshold(int t) {
      this.threshold = t;
      return this;
    }

    /** How long a session stays open at most (default 10 s). */
    public Builder deadline(Duration d) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("the session deadline must be positive");
      }
      this.deadline = d;
      return this;
    }

    /** Closes a session as soon as this many submissions arrived (default: at the deadline). */
    public Builder closeAfter(int submissions) {
      if (submissions < 1) {
        throw new IllegalArgumentException("closeAfter must be >= 1");
      }
      this.closeAfter = submissions;
      return this;
    }

    /** Where this server keeps its state across restarts (default: memory only). */
    public Builder state(Path file) {
      this.state = file;
      return this;
    }

    /** The counters this server updates (default: its own). */
    public Builder stats(ServerStats s) {
      this.stats = s;
      return this;
    }

    public InputServer build() {
      return new InputServer(this);
    }
  }

  /** Closes the next sessions as soon as this many submissions arrived (a local policy). */
  public void closeAfter(int submissions) {
    if (submissions < 1) {
      throw new IllegalArgumentException("closeAfter must be >= 1");
    }
    this.closeAfter = submissions;
  }

  /** Where this server sends to clients; set it before clients connect. */
  public void attach(ClientPort clientPort) {
    this.port = clientPort;
  }

  public ServerStats stats() {
    return stats;
  }

  /** The last session every server saved (0 before the first). */
  public long lastSession() {
    return state.latest().session();
  }

  // ---- from the transport ----

  @Override
  public void connected(int client) {
    stats.connected();
    SessionInbox s = open;
    ClientPort p = port;
    if (s != null && p != null) {
      p.send(client, openMessage(s.session));
    }
  }

  @Override
  public void disconnected(int client) {
    stats.disconnected();
  }

  @Override
  public void message(int client, byte[] message) {
    if (spdz != null && message.length > 0 && message[0] == Messages.MASK_REQUEST) {
      maskRequest(client, message);
      return;
    }
    ClientPort p = port;
    Submit submit;
    try {
      if (Messages.type(message) != Messages.SUBMIT) {
        throw new IllegalArgumentException("message type " + message[0] + " from a client");
      }
      submit = Messages.submit(message, shape.columns(), words);
    } catch (IllegalArgumentException e) {
      stats.refused(Status.MALFORMED);
      log.debug("client {}: malformed message: {}", client, e.getMessage());
      if (p != null) {
        p.send(client, Messages.ack(-1, Status.MALFORMED, e.getMessage()));
      }
      return;
    }
    SessionInbox s = open;
    Status status;
    if (s != null && submit.session() == s.session) {
      status = s.offer(client, submit);
    } else {
      status = submit.session() == lastClosed ? Status.LATE : Status.NOT_OPEN;
    }
    if (status == Status.RECEIVED) {
      stats.received();
    } else {
      stats.refused(status);
      log.debug(
          "client {}: submission to session {} refused: {}", client, submit.session(), status);
    }
    if (p != null && (status != Status.RECEIVED || submit.wantsAck())) {
      p.send(client, Messages.ack(submit.session(), status, status.meaning));
    }
  }

  /** An SPDZ client asks for its input masks: they come when the servers grant them together. */
  private void maskRequest(int client, byte[] message) {
    ClientPort p = port;
    long session;
    try {
      session = Messages.maskRequest(message);
    } catch (IllegalArgumentException e) {
      stats.refused(Status.MALFORMED);
      if (p != null) {
        p.send(client, Messages.ack(-1, Status.MALFORMED, e.getMessage()));
      }
      return;
    }
    SessionInbox s = open;
    Status status;
    if (s != null && session == s.session) {
      status = s.requestMasks(client);
    } else {
      status = session == lastClosed ? Status.LATE : Status.NOT_OPEN;
    }
    if (status != Status.RECEIVED) {
      stats.refused(status);
      log.debug("client {}: session {}: mask request refused: {}", client, session, status);
      if (p != null) {
        p.send(client, Messages.ack(session, status, status.meaning));
      }
    }
  }

  private byte[] openMessage(long session) {
    return Messages.open(
        new Messages.Open(
            session, suiteName(), field.name(), rounds.parties(), threshold, shape.bits()));
  }

  // ---- sessions ----

  /**
   * Runs the next session: opens it, waits for its close, agrees on and checks its submissions,
   * saves the new state and runs {@code computation} on the valid submissions. Every server calls
   * it for every session.
   */
  public <T> SessionOutcome<T> runSession(SessionComputation<T> computation)
      throws InterruptedException {
    start();
    long session = state.latest().session() + 1;
    MDC.put("session", " session " + session);
    try {
      return run(session, computation);
    } finally {
      MDC.remove("session");
    }
  }

  private <T> SessionOutcome<T> run(long session, SessionComputation<T> computation)
      throws InterruptedException {
    SessionInbox inbox = open;
    if (inbox == null || inbox.session != session) {
      inbox = newInbox(session);
      open = inbox;
    }
    ClientPort p = port;
    if (p != null) {
      p.broadcastExcept(openMessage(session), informed);
    }
    long opened = System.nanoTime();
    long until = opened + deadline.toNanos();
    int[] received =
        spdz == null
            ? inbox.closeAfter(closeAfter, until)
            : spdz.collect(inbox, closeAfter, until, () -> port);
    lastClosed = session;
    open = newInbox(session + 1); // from now on submissions to the next session wait for it
    long closed = System.nanoTime();

    SessionCheck checked = spdz == null ? bgw.check(inbox, received) : spdz.check(inbox, received);
    informed = checked.candidates();
    Columns inputs = checked.inputs();
    int valid = checked.valid();
    Map<Exclusion, Integer> excluded = checked.excluded();
    ServerState.Slot before = state.latest();
    long[] sums = before.sums().clone();
    long[] total = field.alloc(1);
    for (int c = 0; c < shape.columns(); c++) {
      Shares column = inputs.column(c);
      field.sum(column.share, 0, valid, total, 0);
      field.add(sums, c, total, 0, sums, c, 1);
      if (column.mac != null) {
        int macs = shape.columns();
        field.sum(column.mac, 0, valid, total, 0);
        field.add(sums, macs + c, total, 0, sums, macs + c, 1);
      }
    }
    state.advance(new ServerState.Slot(session, before.contributors() + valid, sums));
    rounds.agreeOn("the session it saved", session);
    long validated = System.nanoTime();

    Computation<T> c = computation.of(inputs, totals(sums));
    Result<T> result = engine.run(c);
    stats.session(valid, excluded, validated - closed, result.metrics().wallNanos());
    SessionOutcome<T> outcome =
        new SessionOutcome<>(
            session,
            result.value(),
            valid,
            before.contributors() + valid,
            received.length,
            excluded,
            closed - opened,
            validated - closed,
            result.metrics());
    tell(outcome, received, checked);
    log.info(
        "session {}: {} contributors, {} received, excluded {}",
        session,
        valid,
        received.length,
        excluded);
    return outcome;
  }

  private SessionInbox newInbox(long session) {
    return new SessionInbox(session, shape, words, canonical, spdz != null);
  }

  /** The running sums as one contributor per column (MAC shares after the shares, over SPDZ). */
  private Columns totals(long[] sums) {
    Shares[] columns = new Shares[shape.columns()];
    int w = field.words();
    for (int c = 0; c < columns.length; c++) {
      long[] one = new long[w];
      System.arraycopy(sums, c * w, one, 0, w);
      long[] mac = null;
      if (spdz != null) {
        mac = new long[w];
        System.arraycopy(sums, (columns.length + c) * w, mac, 0, w);
      }
      columns[c] = new Shares(1, one, mac);
    }
    return new Columns(shape, columns);
  }

  /**
   * Tells each client that submitted whether its submission counted. Server 0 speaks for all (every
   * server reached the same verdicts): one message per client instead of n. The outcome also tells
   * the client that the next session takes submissions now, at every server: the servers do not
   * send the next opening to the candidates of this session ({@link #informed}), so a client that
   * submits every session gets one message per session.
   */
  private void tell(SessionOutcome<?> o, int[] received, SessionCheck check) {
    ClientPort p = port;
    if (p == null || rounds.myId() != 0) {
      return;
    }
    int[] candidates = check.candidates();
    int k = 0;
    for (int id : received) {
      Exclusion why = Exclusion.NOT_AT_EVERY_SERVER;
      if (k < candidates.length && candidates[k] == id) {
        why = check.verdicts()[k++];
      }
      String detail = why == null ? "counted" : "excluded: " + why.label;
      if (why != null) {
        log.info("client {} left out: {}", id, detail);
      }
      p.send(
          id,
          Messages.outcome(
              new Messages.Outcome(o.session(), why == null, o.contributors(), detail)));
    }
  }

  /**
   * Once per server process: the servers check that they use the same settings and agree on the
   * state to continue from (a server one session ahead goes back to its previous state).
   */
  private void start() {
    if (started) {
      return;
    }
    started = true;
    rounds.agreeOn(
        "other input-server settings (this server: " + settings + "); digest", digest(settings));
    long mine = state.latest().session();
    long[] last = rounds.announce(mine);
    long min = mine;
    for (long s : last) {
      min = Math.min(min, s);
    }
    for (int p = 0; p < last.length; p++) {
      if (last[p] > min + 1) {
        throw new IllegalStateException(
            "server "
                + p
                + " saved session "
                + last[p]
                + " but another only "
                + min
                + ": their states are more than one session apart; restore the servers' state"
                + " files from one point in time");
      }
    }
    if (mine == min + 1) {
      if (state.previous().session() != min) {
        throw new IllegalStateException(
            "this server's previous state is session "
                + state.previous().session()
                + ", not "
                + min
                + "; it cannot return to the others' state");
      }
      log.warn("session {} was not saved by every server: going back to session {}", mine, min);
      state.rollBack();
    }
    if (spdz != null) {
      spdz.start();
    }
    lastClosed = state.latest().session();
  }

  private static long digest(String s) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      long d = 0;
      for (int i = 0; i < 8; i++) {
        d = d << 8 | (h[i] & 0xff);
      }
      return d;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
