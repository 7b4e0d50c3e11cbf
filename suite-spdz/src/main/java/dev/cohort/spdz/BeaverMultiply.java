package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.field.Mersenne127;
import dev.cohort.field.Mersenne61;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;

/**
 * Multiplication with Beaver triples, one round [DPSZ12]: with a triple (⟨a⟩, ⟨b⟩, ⟨c⟩), c = ab,
 * open d = x − a and e = y − b (both in the same frame) and set ⟨z⟩ = ⟨c⟩ + d·⟨y⟩ + e·⟨a⟩. This is
 * the textbook ⟨c⟩ + d·⟨b⟩ + e·⟨a⟩ + d·e with ⟨b⟩ + e = ⟨y⟩ (c + d·y + e·a = ab + (x − a)·y + (y −
 * b)·a = xy): a linear function of this party's shares with public coefficients, so the MAC column
 * follows with the same two products, and neither d·e nor α_i·(d·e) is needed. Four products per
 * element over both columns instead of six. The opened d and e, with this party's MAC shares of
 * them, join the values the next MAC check covers.
 *
 * <p>The opening is one packed column of 2m elements: d at elements [0, m), e at [m, 2m). Over the
 * Mersenne fields this party's shares of d and e are computed straight into the frame of its first
 * peer, copied from there into the others' while in L1, and read back from that frame to be summed
 * (the engine keeps a round's frames until the round has received; a protocol that writes later in
 * the round and grows the frame leaves a copy, and these words are in both): no column of its own,
 * no pass over one. Other fields compute them into a column and copy it into every frame. The other
 * columns (the MAC shares of d and e, the opened values, and that column) come from the {@link
 * ColumnPool} and go back to it: the shares once summed, the rest after the MAC check.
 */
final class BeaverMultiply implements RoundProtocol {

  private static final int BLOCK = 2048; // elements per block of the generic combination

  private final ShareExchange exchange;
  private final CheckLedger ledger;
  private final ColumnPool pool;
  private final Field field;
  private final int m;
  private final Triples triple;
  private final Shares x;
  private final Shares y;
  private final boolean mersenne; // a fused kernel: d and e straight into the frames
  private long[] de; // this party's shares of d and e: a frame, or a pooled column
  private int deAt; // the word in de of d's first element
  private final long[] deMac;
  private Shares result;

  /** ⟨x⟩·⟨y⟩ with {@code triple}, {@code x.length} Beaver triples. */
  BeaverMultiply(
      ShareExchange exchange,
      CheckLedger ledger,
      ColumnPool pool,
      Triples triple,
      Shares x,
      Shares y) {
    this.exchange = exchange;
    this.ledger = ledger;
    this.pool = pool;
    this.field = exchange.field();
    this.m = x.length;
    this.triple = triple;
    this.x = x;
    this.y = y;
    this.mersenne = field instanceof Mersenne127 || field instanceof Mersenne61;
    this.deMac = pool.borrow(2 * m); // every element is written in send
  }

  /**
   * Computes d and e and writes them into the frame of every peer, a range per chunk: the
   * differences and their copies into the frames are split over threads together, a block at a time
   * while the block is in L1, instead of a serial copy of 2m elements per peer after them.
   */
  @Override
  public void send(int round, Outbox out) {
    int words = field.words();
    int parties = exchange.parties();
    int self = exchange.self();
    int first = self == 0 ? 1 : 0; // the first peer: its frame holds this party's d and e
    int[] at = new int[parties];
    for (int k = 0; k < parties; k++) {
      if (k != self) {
        at[k] = out.reserve(k, 2 * m * words);
      }
    }
    if (mersenne) {
      de = out.buffer(first); // reserved above: the same array until the round's next write
      deAt = at[first];
    } else {
      de = pool.borrow(2 * m); // every element is written below
      deAt = 0;
    }
    exchange
        .workers()
        .run(
            m,
            ShareExchange.MIN_CHUNK,
            (c, from, to) -> {
              for (int lo = from; lo < to; lo += SpdzKernels.BEAVER_BLOCK) {
                int hi = Math.min(to, lo + SpdzKernels.BEAVER_BLOCK);
                differences(lo, hi);
                for (int k = 0; k < parties; k++) {
                  if (k != self && (k != first || !mersenne)) {
                    copy(out.buffer(k), at[k], lo, hi);
                  }
                }
              }
            });
  }

  /** Copies this party's d and e of the elements [from, to) into a frame reserved at {@code at}. */
  private void copy(long[] frame, int at, int from, int to) {
    int words = field.words();
    int n = (to - from) * words;
    System.arraycopy(de, deAt + from * words, frame, at + from * words, n);
    System.arraycopy(de, deAt + (m + from) * words, frame, at + (m + from) * words, n);
  }

  /** d = x − a at [from, to) and e = y − b at [m + from, m + to), both columns. */
  private void differences(int from, int to) {
    if (field instanceof Mersenne127) {
      SpdzKernels.differences127(x, y, triple, m, de, deAt, deMac, from, to);
    } else if (field instanceof Mersenne61) {
      SpdzKernels.differences61(x, y, triple, m, de, deAt, deMac, from, to);
    } else {
      int n = to - from;
      field.sub(x.share, from, triple.a().share, from, de, from, n);
      field.sub(y.share, from, triple.b().share, from, de, m + from, n);
      field.sub(x.mac, from, triple.a().mac, from, deMac, from, n);
      field.sub(y.mac, from, triple.b().mac, from, deMac, m + from, n);
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    long[] opened = pool.borrow(2 * m);
    long[][] columns = resultColumns();
    long[] share = columns[0];
    long[] mac = columns[1];
    if (mersenne) {
      PeerShares peers = new PeerShares(exchange, in, 2 * m);
      exchange
          .workers()
          .run(
              m,
              ShareExchange.MIN_CHUNK,
              (c, from, to) -> openAndCombine(peers, opened, share, mac, from, to));
      peers.check();
    } else {
      exchange.sum(in, de, 2 * m, opened);
      combineBlocked(opened, share, mac); // z = c + d·y + e·a on both columns
      pool.giveBack(de); // sent, and summed: dead
    }
    de = null; // a frame the engine reuses next round, or given back
    ledger.recordOpenedPooled(opened, deMac, 2 * m); // the check gives both back
    result = new Shares(m, share, mac);
    return true;
  }

  /**
   * The result's share and MAC columns, new (they leave the gate), allocated on two threads when
   * the batch is split: zeroing two columns of m elements is otherwise serial work.
   */
  private long[][] resultColumns() {
    long[][] columns = new long[2][];
    if (exchange.workers().chunks(m, ShareExchange.MIN_CHUNK) < 2) {
      columns[0] = field.alloc(m);
      columns[1] = field.alloc(m);
    } else {
      exchange
          .workers()
          .run(
              2,
              1,
              (c, from, to) -> {
                for (int i = from; i < to; i++) {
                  columns[i] = field.alloc(m);
                }
              });
    }
    return columns;
  }

  /**
   * The Mersenne fields, elements [first, last): d and e of a block are summed and at once
   * combined, while they are in L1 (z = c + d·y + e·a on both columns); the peers' shares are
   * range-checked ({@link PeerShares#check}) before anything leaves this gate.
   */
  private void openAndCombine(
      PeerShares peers, long[] opened, long[] share, long[] mac, int first, int last) {
    boolean wide = field instanceof Mersenne127;
    for (int from = first; from < last; from += SpdzKernels.BEAVER_BLOCK) {
      int to = Math.min(last, from + SpdzKernels.BEAVER_BLOCK);
      peers.sum(de, deAt, opened, from, to); // d
      peers.sum(de, deAt, opened, m + from, m + to); // e
      if (wide) {
        SpdzKernels.beaver127(opened, m, triple, y, share, mac, from, to);
      } else {
        SpdzKernels.beaver61(opened, m, triple, y, share, mac, from, to);
      }
    }
  }

  /** Any field: the same sums, a block of {@value #BLOCK} elements at a time, one scratch pair. */
  private void combineBlocked(long[] opened, long[] share, long[] mac) {
    Shares a = triple.a();
    Shares c = triple.c();
    int block = Math.min(BLOCK, m);
    long[] t = field.alloc(block);
    for (int off = 0; off < m; off += block) {
      int len = Math.min(block, m - off);
      field.mul(opened, off, y.share, off, t, 0, len);
      field.add(c.share, off, t, 0, share, off, len);
      field.mul(opened, m + off, a.share, off, t, 0, len);
      field.add(share, off, t, 0, share, off, len);
      field.mul(opened, off, y.mac, off, t, 0, len);
      field.add(c.mac, off, t, 0, mac, off, len);
      field.mul(opened, m + off, a.mac, off, t, 0, len);
      field.add(mac, off, t, 0, mac, off, len);
    }
  }

  @Override
  public Shares shares() {
    return result;
  }
}
