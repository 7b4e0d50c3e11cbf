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
 * <p>The opening is one packed column of 2m elements: d at elements [0, m), e at [m, 2m). Its
 * columns (this party's shares of d and e, their MAC shares, the opened values) come from the
 * {@link ColumnPool} and go back to it: the shares once summed, the rest after the MAC check.
 */
final class BeaverMultiply implements RoundProtocol {

  private static final int BLOCK = 2048; // elements per block of the generic combination

  private final ShareExchange exchange;
  private final CheckLedger ledger;
  private final ColumnPool pool;
  private final Field field;
  private final int m;
  private final Triples triple;
  private final Shares y;
  private final long[] de; // this party's shares of d and e, then the opened d and e
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
    this.y = y;
    this.de = pool.borrow(2 * m); // every element is written below
    this.deMac = pool.borrow(2 * m);
    exchange
        .workers()
        .run(m, ShareExchange.MIN_CHUNK, (c, from, to) -> differences(x, y, from, to));
  }

  /** d = x − a at [from, to) and e = y − b at [m + from, m + to), both columns. */
  private void differences(Shares x, Shares y, int from, int to) {
    if (field instanceof Mersenne127) {
      SpdzKernels.differences127(x, y, triple, m, de, deMac, from, to);
    } else {
      int n = to - from;
      field.sub(x.share, from, triple.a().share, from, de, from, n);
      field.sub(y.share, from, triple.b().share, from, de, m + from, n);
      field.sub(x.mac, from, triple.a().mac, from, deMac, from, n);
      field.sub(y.mac, from, triple.b().mac, from, deMac, m + from, n);
    }
  }

  @Override
  public void send(int round, Outbox out) {
    exchange.sendToAll(out, de, 2 * m);
  }

  @Override
  public boolean receive(int round, Inbox in) {
    long[] opened = pool.borrow(2 * m);
    long[] share = field.alloc(m);
    long[] mac = field.alloc(m);
    if (field instanceof Mersenne127) {
      PeerShares127 peers = new PeerShares127(exchange, in, 2 * m);
      exchange
          .workers()
          .run(
              m,
              ShareExchange.MIN_CHUNK,
              (c, from, to) -> openAndCombine127(peers, opened, share, mac, from, to));
      peers.check();
    } else if (field instanceof Mersenne61) {
      openAndCombine61(in, opened, share, mac);
    } else {
      exchange.sum(in, de, 2 * m, opened);
      combineBlocked(opened, share, mac); // z = c + d·y + e·a on both columns
    }
    pool.giveBack(de); // sent, and summed: dead
    ledger.recordOpenedPooled(opened, deMac, 2 * m); // the check gives both back
    result = new Shares(m, share, mac);
    return true;
  }

  /**
   * 2^127 − 1, elements [first, last): d and e of a block are summed and at once combined, while
   * they are in L1; the peers' shares are range-checked ({@link PeerShares127#check}) before
   * anything leaves this gate.
   */
  private void openAndCombine127(
      PeerShares127 peers, long[] opened, long[] share, long[] mac, int first, int last) {
    for (int from = first; from < last; from += SpdzKernels.BEAVER_BLOCK) {
      int to = Math.min(last, from + SpdzKernels.BEAVER_BLOCK);
      peers.sum(de, opened, from, to); // d
      peers.sum(de, opened, m + from, m + to); // e
      SpdzKernels.beaver127(opened, m, triple, y, share, mac, from, to);
    }
  }

  /**
   * 2^61 − 1: every peer's shares are taken and range-checked first ({@link ShareExchange#take}),
   * then d and e are summed and combined, a range per chunk: z = c + d·y + e·a on both columns.
   */
  private void openAndCombine61(Inbox in, long[] opened, long[] share, long[] mac) {
    int peers = exchange.parties() - 1;
    long[][] taken = new long[peers][];
    int[] offsets = new int[peers];
    for (int k = 0, j = 0; k < exchange.parties(); k++) {
      if (k != exchange.self()) {
        offsets[j] = exchange.take(in, k, 2 * m, j);
        taken[j++] = in.elements();
      }
    }
    exchange
        .workers()
        .run(
            m,
            ShareExchange.MIN_CHUNK,
            (c, from, to) -> {
              int n = to - from;
              long[] addend = de; // own shares, then the running sum: no copy of own
              for (int j = 0; j < peers; j++) {
                field.add(addend, from, taken[j], offsets[j] + from, opened, from, n);
                field.add(addend, m + from, taken[j], offsets[j] + m + from, opened, m + from, n);
                addend = opened;
              }
              SpdzKernels.beaver61(opened, m, triple, y, share, mac, from, to);
            });
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
