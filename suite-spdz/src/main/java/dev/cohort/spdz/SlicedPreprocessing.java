package dev.cohort.spdz;

import dev.cohort.api.AbortException;
import dev.cohort.suite.Shares;
import java.util.ArrayDeque;

/**
 * One party's preprocessing cut into disjoint slices, one per group of sessions that runs on its
 * own thread ({@code EngineConfig.withGroups}), over the party's one {@link SpdzPreprocessing}
 * source: no item is handed to two groups, and group g gets the same items at every party whatever
 * the threads' timing.
 *
 * <p>The rule, per kind (triples, random elements, random bits, each owner's input masks, each
 * owner's input bits): in a run of k groups the kind's items are cut into chunks of {@value #CHUNK}
 * in the order the source hands them out, and chunk j belongs to group j mod k. Chunks are drawn
 * from the source strictly in that order (under one lock), so the source's draws, and the use
 * record of dealer files, go in the same order at every party; a chunk drawn for a later group's
 * sake waits, parked, until its group asks. A request is served from the group's chunks in order,
 * across chunk boundaries. Since every group asks for the same amounts in the same order at every
 * party (it runs the same gates), the i-th item group g gets is the same sharing everywhere. Each
 * run in groups ({@link #beforeRun}) starts a new division at the source's position, which is the
 * same everywhere (chunk j is drawn exactly when some group needs chunk j or a later one); what was
 * parked or left in a group's last chunk is dropped, never handed out: at most k partly used chunks
 * per kind, plus the chunks of a group that needed less than the others.
 *
 * <p>{@value #CHUNK} items: above the few hundred elements a typical group draws per kind per round
 * (so most requests take one chunk and one draw from the source, whose files write their use record
 * per draw), small enough that a run wastes at most k · {@value #CHUNK} items per kind. Dealer
 * files for runs in groups must hold that much more of each kind.
 *
 * <p>Shared by all groups: the MAC key and the MAC-check marks. A group's check may be in flight
 * while another's passes or fails: the source's mark is cleared only when no check is in flight,
 * and once a check failed it stays failed and no group may reveal σ or draw again. The engine's own
 * suite (runs not in groups) draws straight from the source through {@link #whole()}, with the same
 * marks; runs on one engine happen one after another.
 *
 * <p>Positions ({@link PositionAgreement}): the groups' suites each run the agreement in their
 * set-up, in the same round; each reports the source's positions as they stood when the run began,
 * and each that finds a party ahead moves the source to the same furthest position (moving forward
 * only, so the second does nothing). A group draws only after its own agreement, so every draw
 * comes after the source stands at the agreed position.
 */
final class SlicedPreprocessing {

  /** Items per chunk of each kind. */
  static final int CHUNK = 1024;

  private final SpdzPreprocessing source;
  private final int party;
  private final int parties;
  private final int words;
  private final Group[] groups;
  private final Whole whole = new Whole();
  private int running; // groups in this run; 0 before the first run in groups
  private long[] drawn; // per kind: chunks drawn in this run
  private ArrayDeque<long[][]>[][] parked; // per kind, per group: drawn, not yet asked for
  private SpdzPreprocessing.Positions atStart;
  private int checksInFlight;
  private boolean failed;

  SlicedPreprocessing(SpdzPreprocessing source, int party, int parties, int words, int groups) {
    this.source = source;
    this.party = party;
    this.parties = parties;
    this.words = words;
    this.groups = new Group[groups];
    for (int g = 0; g < groups; g++) {
      this.groups[g] = new Group(g);
    }
  }

  /** The preprocessing of the engine's own suite: straight from the source, marks shared. */
  SpdzPreprocessing whole() {
    return whole;
  }

  /** The slice of group {@code g}. */
  SpdzPreprocessing group(int g) {
    return groups[g];
  }

  /**
   * A run of {@code k} groups starts (none runs now): a new division at the source's position, the
   * last run's parked chunks and partly used ones dropped.
   */
  @SuppressWarnings("unchecked")
  synchronized void beforeRun(int k) {
    if (k < 1 || k > groups.length) {
      throw new IllegalArgumentException(
          "groups (" + k + ") must be in [1, " + groups.length + "]");
    }
    int kinds = PositionAgreement.kinds(parties);
    running = k;
    drawn = new long[kinds];
    parked = new ArrayDeque[kinds][k];
    for (ArrayDeque<long[][]>[] perGroup : parked) {
      for (int g = 0; g < k; g++) {
        perGroup[g] = new ArrayDeque<>();
      }
    }
    atStart = source.positions();
    for (Group group : groups) {
      group.reset(k);
    }
  }

  // ---- chunks ----

  /**
   * Chunk {@code index} of {@code kind} for group {@code g}: drawn now, with every chunk before it
   * not drawn yet (parked for its group), or taken from those parked.
   */
  private synchronized long[][] chunk(int g, int kind, long index) {
    if (failed) {
      throw burned();
    }
    ArrayDeque<long[][]> mine = parked[kind][g];
    if (index < drawn[kind]) {
      return mine.removeFirst(); // a group asks for its chunks in order: the first parked is it
    }
    while (true) {
      long j = drawn[kind];
      long[][] c = draw(kind, CHUNK);
      drawn[kind] = j + 1;
      if (j == index) {
        return c;
      }
      parked[kind][(int) (j % running)].addLast(c);
    }
  }

  /** {@code count} items of {@code kind} from the source, as columns. */
  private long[][] draw(int kind, int count) {
    try {
      return columns(source, kind, count);
    } catch (MaterialException e) {
      throw new MaterialException(
          e.getMessage()
              + " (sessions in "
              + running
              + " groups draw material in chunks of "
              + CHUNK
              + " per kind and group: deal up to "
              + running
              + " · "
              + CHUNK
              + " more of each kind)");
    }
  }

  /**
   * {@code count} items of {@code kind} (the order of {@link SpdzPreprocessing.Positions#used()})
   * from {@code p}, as columns: triples a, a mac, b, b mac, c, c mac; random elements and bits r, r
   * mac; input masks and bits r, r mac, and r at the owner (null elsewhere).
   */
  private long[][] columns(SpdzPreprocessing p, int kind, int count) {
    if (kind == 0) {
      SpdzPreprocessing.Triples t = p.triples(count);
      return new long[][] {t.a().share, t.a().mac, t.b().share, t.b().mac, t.c().share, t.c().mac};
    }
    if (kind == 1 || kind == 2) {
      Shares s = kind == 1 ? p.randomElements(count) : p.randomBits(count);
      return new long[][] {s.share, s.mac};
    }
    int owner = (kind - 3) % parties;
    SpdzPreprocessing.InputMasks m =
        kind < 3 + parties ? p.inputMasks(owner, count) : p.inputBits(owner, count);
    return new long[][] {m.shares().share, m.shares().mac, m.values()};
  }

  // ---- the MAC-check marks, shared by every suite of this party ----

  private synchronized void beforeMacReveal() {
    if (failed) {
      throw burned();
    }
    checksInFlight++; // never taken back if the source cannot mark: the mark then never clears
    source.beforeMacReveal();
  }

  private synchronized void macCheckPassed() {
    checksInFlight--;
    if (checksInFlight == 0 && !failed) {
      source.macCheckPassed();
    }
  }

  private synchronized void macCheckFailed() {
    checksInFlight--;
    failed = true;
    source.macCheckFailed();
  }

  private static AbortException burned() {
    return new AbortException(
        "MAC check failed in another session group of this party: its MAC key may be known to a"
            + " cheating party, so no group reveals or draws anything more");
  }

  private synchronized void skipTo(long[] used) {
    source.skipTo(used); // only forward: a second group's agreement on the same position is a no-op
  }

  // ---- the views ----

  /** The MAC key and the MAC-check marks, shared by the engine's own suite and every group. */
  private abstract class Shared implements SpdzPreprocessing {
    @Override
    public final long[] macKeyShare() {
      return source.macKeyShare();
    }

    @Override
    public final void beforeMacReveal() {
      SlicedPreprocessing.this.beforeMacReveal();
    }

    @Override
    public final void macCheckPassed() {
      SlicedPreprocessing.this.macCheckPassed();
    }

    @Override
    public final void macCheckFailed() {
      SlicedPreprocessing.this.macCheckFailed();
    }
  }

  /** The engine's own suite's preprocessing: the source itself, with the marks counted. */
  private final class Whole extends Shared {

    @Override
    public Triples triples(int count) {
      synchronized (SlicedPreprocessing.this) {
        return source.triples(count);
      }
    }

    @Override
    public InputMasks inputMasks(int owner, int count) {
      synchronized (SlicedPreprocessing.this) {
        return source.inputMasks(owner, count);
      }
    }

    @Override
    public InputMasks inputBits(int owner, int count) {
      synchronized (SlicedPreprocessing.this) {
        return source.inputBits(owner, count);
      }
    }

    @Override
    public Shares randomElements(int count) {
      synchronized (SlicedPreprocessing.this) {
        return source.randomElements(count);
      }
    }

    @Override
    public Shares randomBits(int count) {
      synchronized (SlicedPreprocessing.this) {
        return source.randomBits(count);
      }
    }

    @Override
    public long waitNanos() {
      return source.waitNanos();
    }

    @Override
    public Positions positions() {
      synchronized (SlicedPreprocessing.this) {
        return source.positions();
      }
    }

    @Override
    public void skipTo(long[] used) {
      SlicedPreprocessing.this.skipTo(used);
    }
  }

  /**
   * Group g's slice: its chunks of each kind, in order. Used by the group's own thread only (the
   * chunk it is in, how far it got); the shared state is behind the slicer's lock.
   */
  private final class Group extends Shared {
    private final int g;
    private long[][][] current; // per kind: the chunk being used, or null
    private int[] offset; // per kind: items of current used
    private long[] next; // per kind: the index of the next chunk to ask for
    private int stride; // the groups in this run: this group's chunks are g, g + stride, ...

    Group(int g) {
      this.g = g;
    }

    void reset(int k) {
      int kinds = PositionAgreement.kinds(parties);
      current = new long[kinds][][];
      offset = new int[kinds];
      next = new long[kinds];
      for (int kind = 0; kind < kinds; kind++) {
        next[kind] = g;
      }
      stride = k;
    }

    /** {@code count} items of {@code kind}: the rest of the current chunk, then the next ones. */
    private long[][] take(int kind, int count) {
      if (current == null || g >= stride) {
        throw new IllegalStateException("session group " + g + " draws outside a run of its own");
      }
      int columns = kind == 0 ? 6 : kind < 3 ? 2 : 3;
      boolean values = kind >= 3 && (kind - 3) % parties == party;
      long[][] out = new long[columns][];
      for (int c = 0; c < columns; c++) {
        out[c] = c == 2 && kind >= 3 && !values ? null : new long[count * words];
      }
      for (int filled = 0; filled < count; ) {
        if (current[kind] == null || offset[kind] == CHUNK) {
          current[kind] = chunk(g, kind, next[kind]);
          next[kind] += stride;
          offset[kind] = 0;
        }
        int n = Math.min(CHUNK - offset[kind], count - filled);
        for (int c = 0; c < columns; c++) {
          if (out[c] != null) {
            System.arraycopy(
                current[kind][c], offset[kind] * words, out[c], filled * words, n * words);
          }
        }
        offset[kind] += n;
        filled += n;
      }
      return out;
    }

    @Override
    public Triples triples(int count) {
      long[][] c = take(0, count);
      return new Triples(
          new Shares(count, c[0], c[1]),
          new Shares(count, c[2], c[3]),
          new Shares(count, c[4], c[5]));
    }

    @Override
    public InputMasks inputMasks(int owner, int count) {
      long[][] c = take(3 + owner, count);
      return new InputMasks(new Shares(count, c[0], c[1]), c[2]);
    }

    @Override
    public InputMasks inputBits(int owner, int count) {
      long[][] c = take(3 + parties + owner, count);
      return new InputMasks(new Shares(count, c[0], c[1]), c[2]);
    }

    @Override
    public Shares randomElements(int count) {
      long[][] c = take(1, count);
      return new Shares(count, c[0], c[1]);
    }

    @Override
    public Shares randomBits(int count) {
      long[][] c = take(2, count);
      return new Shares(count, c[0], c[1]);
    }

    /** Group 0 reports the source's waits, the others none: the run's sum counts each once. */
    @Override
    public long waitNanos() {
      return g == 0 ? source.waitNanos() : 0;
    }

    /** The source's positions when this run began: the same for every group, whatever they drew. */
    @Override
    public Positions positions() {
      synchronized (SlicedPreprocessing.this) {
        return atStart;
      }
    }

    @Override
    public void skipTo(long[] used) {
      SlicedPreprocessing.this.skipTo(used);
    }
  }
}
