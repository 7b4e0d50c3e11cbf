package dev.cohort.clients;

import dev.cohort.api.Deferred;
import dev.cohort.engine.Engine;
import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.ImportedColumns;
import dev.cohort.suite.Shares;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One server's side of SPDZ sessions (servers malicious, any number of them but one; clients
 * malicious): masks granted while the session is open ({@link MaskRounds}), then two rounds that
 * fix the candidates and a joint seed, then the bit check of {@link SpdzSubmissions} in the engine.
 *
 * <p>Closing, two rounds, the same frame to every peer:
 *
 * <pre>
 * A: session | commitment to the seed part (4) | count | (id, digest of its submission (4)) × count
 * B: seed part (2) | nonce (4) | digest of the grants, the candidates and the exclusions (4)
 * </pre>
 *
 * A submission every server received with the same digest is a candidate; one that some server
 * received differently is left out as {@link Exclusion#DIFFERENT_AT_SERVERS}: its client sent
 * different values to different servers (full SHA-256: finding two submissions with one digest is
 * out of reach). Round B opens the seed parts (commit-then-open, bound to the server: a corrupt
 * server cannot choose the coefficients after seeing the others' parts) and compares what every
 * server decided: a corrupt server that announced different ids or digests to different honest
 * servers makes them decide differently, and round B aborts the session before anything is opened.
 * What a corrupt server <em>can</em> do is leave out a client by announcing a wrong digest for it
 * to every server (it could refuse to serve the client as well); it cannot put a submission in or
 * change a value: a share it changes fails the MAC check.
 *
 * <p>Then the check values {@code t} of all candidates are opened in one engine run (after a MAC
 * check, and checked again before the run returns): the candidates whose {@code t} is 0 count, the
 * others are {@link Exclusion#OUT_OF_RANGE}.
 */
final class SpdzSessions {

  private final Engine engine;
  private final ServerRounds rounds;
  private final Field field;
  private final Shape shape;
  private final int me;
  private final MaskRounds masks;
  private final SpdzValidation validation;
  private final Prg prg;

  SpdzSessions(Engine engine, ServerRounds rounds, Shape shape, int me, Prg prg) {
    if (!(engine.suite() instanceof SpdzSuite suite)) {
      throw new IllegalArgumentException(
          "an SPDZ input server needs an SPDZ engine, not "
              + engine.suite().getClass().getSimpleName());
    }
    this.engine = engine;
    this.rounds = rounds;
    this.field = suite.field();
    this.shape = shape;
    this.me = me;
    this.masks = new MaskRounds(rounds, suite, shape, me);
    this.validation = new SpdzValidation(suite, shape);
    this.prg = prg;
  }

  /**
   * Runs the engine's set-up (once per engine): the servers agree on their positions in the
   * preprocessing (after a restart one may stand ahead) before the first triple goes to a client.
   */
  void start() {
    engine.run(b -> Deferred.of(null));
  }

  /** The open session: masks granted, until it closes; returns the submissions received. */
  int[] collect(SessionInbox inbox, int count, long deadlineNanos, Supplier<ClientPort> port)
      throws InterruptedException {
    return masks.collect(inbox, count, deadlineNanos, port);
  }

  /** The two closing rounds, then the check of every candidate. */
  SessionCheck check(SessionInbox inbox, int[] received) {
    long session = inbox.session;
    long[] seedPart = {prg.nextLong(), prg.nextLong()};
    long[] nonce = {prg.nextLong(), prg.nextLong(), prg.nextLong(), prg.nextLong()};
    long[] frame = new long[6 + 5 * received.length];
    frame[0] = session;
    System.arraycopy(Digests.commit(me, session, seedPart, nonce), 0, frame, 1, Digests.WORDS);
    frame[5] = received.length;
    MessageDigest sha = Digests.sha256();
    byte[] scratch = new byte[8 * SpdzSubmissions.elements(shape) * field.words()];
    for (int k = 0; k < received.length; k++) {
      frame[6 + 5 * k] = received[k];
      Digests.of(sha, scratch, inbox.words(received[k]), frame, 7 + 5 * k);
    }
    long[][] all = rounds.all(frame);
    boolean[] missing = new boolean[received.length];
    boolean[] differs = new boolean[received.length];
    for (int p = 0; p < all.length; p++) {
      long[] f = all[p];
      if (f.length < 6 || f[0] != session || f[5] * 5 != f.length - 6L) {
        throw new IllegalStateException(
            "server "
                + p
                + " closed "
                + (f.length < 6 ? "with a malformed frame" : "session " + f[0])
                + " while this server closed session "
                + session
                + "; the servers are out of step");
      }
      if (p != me) {
        compare(frame, f, missing, differs);
      }
    }
    int[] candidates = select(received, missing, differs, false);
    int[] different = select(received, missing, differs, true);
    long[] agreement = agreement(session, candidates, different);
    long[] reveal = new long[10];
    System.arraycopy(seedPart, 0, reveal, 0, 2);
    System.arraycopy(nonce, 0, reveal, 2, 4);
    System.arraycopy(agreement, 0, reveal, 6, 4);
    long[][] opened = rounds.all(reveal);
    byte[] seed = seed(session, all, opened, agreement);

    Map<Exclusion, Integer> excluded = new EnumMap<>(Exclusion.class);
    SessionCheck.count(
        excluded,
        Exclusion.NOT_AT_EVERY_SERVER,
        received.length - candidates.length - different.length);
    SessionCheck.count(excluded, Exclusion.DIFFERENT_AT_SERVERS, different.length);
    SessionCheck checked = verdicts(inbox, candidates, seed, excluded);
    return different.length == 0 ? checked : withDifferent(checked, different);
  }

  /** {@code checked} with the submissions that differed among the candidates, ascending. */
  private static SessionCheck withDifferent(SessionCheck checked, int[] different) {
    int[] ids = checked.candidates();
    int[] all = new int[ids.length + different.length];
    Exclusion[] verdicts = new Exclusion[all.length];
    int i = 0;
    int j = 0;
    for (int k = 0; k < all.length; k++) {
      if (j == different.length || i < ids.length && ids[i] < different[j]) {
        verdicts[k] = checked.verdicts()[i];
        all[k] = ids[i++];
      } else {
        verdicts[k] = Exclusion.DIFFERENT_AT_SERVERS;
        all[k] = different[j++];
      }
    }
    return new SessionCheck(all, verdicts, checked.inputs(), checked.excluded());
  }

  /** Marks, per id of {@code mine}, whether {@code theirs} lacks it or holds another digest. */
  private static void compare(long[] mine, long[] theirs, boolean[] missing, boolean[] differs) {
    int j = 6;
    for (int k = 0; k < missing.length; k++) {
      long id = mine[6 + 5 * k];
      while (j < theirs.length && theirs[j] < id) {
        j += 5;
      }
      if (j >= theirs.length || theirs[j] != id) {
        missing[k] = true;
        continue;
      }
      for (int d = 1; d <= Digests.WORDS; d++) {
        differs[k] |= theirs[j + d] != mine[6 + 5 * k + d];
      }
    }
  }

  /** The ids every server received: with equal digests ({@code different} false) or not. */
  private static int[] select(
      int[] received, boolean[] missing, boolean[] differs, boolean different) {
    int[] out = new int[received.length];
    int n = 0;
    for (int k = 0; k < received.length; k++) {
      if (!missing[k] && differs[k] == different) {
        out[n++] = received[k];
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** What every server must have decided the same: grants, candidates, exclusions. */
  private long[] agreement(long session, int[] candidates, int[] different) {
    MessageDigest d = Digests.sha256();
    d.update(masks.grantsDigest());
    Digests.update(d, session);
    Digests.update(d, candidates.length);
    for (int id : candidates) {
      Digests.update(d, id);
    }
    Digests.update(d, different.length);
    for (int id : different) {
      Digests.update(d, id);
    }
    long[] out = new long[Digests.WORDS];
    Digests.toWords(d.digest(), out, 0);
    return out;
  }

  /** Checks every opened seed part against its commitment and every decision against ours. */
  private byte[] seed(long session, long[][] committed, long[][] opened, long[] agreement) {
    long[] seed = new long[2];
    for (int p = 0; p < opened.length; p++) {
      long[] o = opened[p];
      if (o.length != 10) {
        throw new IllegalStateException(
            "server " + p + " sent a malformed seed opening in session " + session);
      }
      long[] commitment =
          Digests.commit(p, session, Arrays.copyOfRange(o, 0, 2), Arrays.copyOfRange(o, 2, 6));
      if (!Arrays.equals(commitment, Arrays.copyOfRange(committed[p], 1, 1 + Digests.WORDS))) {
        throw new IllegalStateException(
            "server "
                + p
                + " opened a seed part that does not match its commitment in session "
                + session
                + ": a corrupt or faulty server; the session is aborted before anything is opened");
      }
      if (!Arrays.equals(agreement, Arrays.copyOfRange(o, 6, 10))) {
        throw new IllegalStateException(
            "server "
                + p
                + " granted masks or took submissions into session "
                + session
                + " other than this server did (a server announced different things to different"
                + " servers: corrupt or faulty); the session is aborted before anything is opened");
      }
      seed[0] ^= o[0];
      seed[1] ^= o[1];
    }
    byte[] bytes = new byte[16];
    for (int i = 0; i < 16; i++) {
      bytes[i] = (byte) (seed[i >> 3] >>> (8 * (i & 7)));
    }
    return bytes;
  }

  /** Opens every candidate's check value in one engine run; the zeros count. */
  private SessionCheck verdicts(
      SessionInbox inbox, int[] candidates, byte[] seed, Map<Exclusion, Integer> excluded) {
    int count = candidates.length;
    Exclusion[] verdicts = new Exclusion[count];
    MaskRounds.Grant[] triples = new MaskRounds.Grant[count];
    long[][] words = new long[count][];
    for (int k = 0; k < count; k++) {
      triples[k] = masks.triples(candidates[k]);
      words[k] = inbox.words(candidates[k]);
    }
    int valid = 0;
    if (count > 0) {
      validation.coefficients(seed);
      CheckColumn column = new CheckColumn(validation.checkValues(triples, words));
      int bits = field.bitLength();
      long[] opened = engine.run(b -> b.openLowBits(b.clientInputs(column, 0), bits)).value();
      int perElement = (bits + 63) / 64;
      for (int k = 0; k < count; k++) {
        boolean zero = true;
        for (int i = 0; i < perElement; i++) {
          zero &= opened[k * perElement + i] == 0;
        }
        if (zero) {
          triples[valid] = triples[k];
          words[valid++] = words[k];
        } else {
          verdicts[k] = Exclusion.OUT_OF_RANGE;
        }
      }
    }
    SessionCheck.count(excluded, Exclusion.OUT_OF_RANGE, count - valid);
    Shares[] values = validation.values(Arrays.copyOf(triples, valid), Arrays.copyOf(words, valid));
    return new SessionCheck(candidates, verdicts, new Columns(shape, values), excluded);
  }

  /** The candidates' check values as the one column the engine opens. */
  private record CheckColumn(Shares t) implements ImportedColumns {
    @Override
    public int contributors() {
      return t.length;
    }

    @Override
    public int columns() {
      return 1;
    }

    @Override
    public int bits(int column) {
      return Shape.MAX_BITS; // not a declared range: t is any element, opened as it is
    }

    @Override
    public Shares column(int column) {
      return t;
    }
  }
}
