package dev.cohort.bgw;

import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import java.util.ArrayList;
import java.util.List;

/**
 * BGW's set-up: agrees the pairwise dealing seeds and, when PRSS is in use, the PRSS keys, in one
 * round, once per engine. Once finished it holds them: {@link #toSeeded}, {@link #fromDealer} and
 * {@link #prss}.
 *
 * <p>Invariant: in round 0, each party P_i sends a fresh 128-bit key to each of the t parties of
 * T_i (in the order of {@link ShamirSharing#seeded}), then, for each PRSS key set it belongs to (in
 * the order of {@link Prss#setsOf}) whose lowest member it is, a fresh key to every other member;
 * each receiver reads from P_i in that same order. Nothing else is sent, so a frame carries only
 * keys, and no key reaches a party outside T_i or outside the key set.
 *
 * <p>A key is two words; stream 0 of its PRG feeds dealing and PRSS elements, stream 1 PRSS bits.
 */
final class BgwKeySetup implements RoundProtocol {

  private final ShamirSharing sharing;
  private final int party;
  private final int parties;
  private final int threshold;
  private final Prg prg;
  private final boolean usePrss;
  private final List<int[]> sets; // the PRSS key sets of this party, by their outsiders
  private final List<long[]> myKeys = new ArrayList<>(); // keys of the sets this party deals
  private final Prg[] toSeeded; // self -> k for k in T_self
  private final Prg[] fromDealer; // i -> self for self in T_i
  private Prss prss;

  /**
   * The set-up of {@code party} for {@code sharing}'s (n, t), drawing fresh keys from {@code prg};
   * PRSS keys only when {@code usePrss}.
   */
  BgwKeySetup(ShamirSharing sharing, int party, Prg prg, boolean usePrss) {
    this.sharing = sharing;
    this.party = party;
    this.parties = sharing.parties;
    this.threshold = sharing.threshold;
    this.prg = prg;
    this.usePrss = usePrss;
    this.sets = usePrss ? Prss.setsOf(party, parties, threshold) : List.of();
    this.toSeeded = new Prg[parties];
    this.fromDealer = new Prg[parties];
  }

  @Override
  public void send(int round, Outbox out) {
    for (int m = 0; m < threshold; m++) {
      int k = sharing.seeded(party, m);
      long[] key = newKey();
      toSeeded[k] = prgOf(key, 0);
      out.write(k, key, 0, 2);
    }
    for (int[] outsiders : sets) {
      if (Prss.lowestMember(outsiders) == party) {
        long[] key = newKey();
        myKeys.add(key);
        for (int k = party + 1; k < parties; k++) {
          if (Prss.isMember(outsiders, k)) {
            out.write(k, key, 0, 2);
          }
        }
      }
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    for (int i = 0; i < parties; i++) {
      if (i != party && sharing.isSeeded(i, party)) {
        long[] key = new long[2];
        in.read(i, key, 0, 2);
        fromDealer[i] = prgOf(key, 0);
      }
    }
    if (!usePrss) {
      return true;
    }
    List<Prg> keys = new ArrayList<>();
    List<Prg> bitKeys = new ArrayList<>();
    int mine = 0;
    for (int[] outsiders : sets) {
      int lowest = Prss.lowestMember(outsiders);
      long[] key;
      if (lowest == party) {
        key = myKeys.get(mine++);
      } else {
        key = new long[2];
        in.read(lowest, key, 0, 2);
      }
      keys.add(prgOf(key, 0));
      bitKeys.add(prgOf(key, 1));
    }
    prss = new Prss(sharing.field, party, sets, keys, bitKeys);
    return true;
  }

  /** The PRG this party shares with party {@code k} of T_self, to deal with; once finished. */
  Prg toSeeded(int k) {
    return toSeeded[k];
  }

  /** The PRG {@code dealer} shares with this party of T_dealer; once finished. */
  Prg fromDealer(int dealer) {
    return fromDealer[dealer];
  }

  /** The PRSS of this party, once finished; null when PRSS is not in use. */
  Prss prss() {
    return prss;
  }

  private long[] newKey() {
    return new long[] {prg.nextLong(), prg.nextLong()};
  }

  private static Prg prgOf(long[] key, long stream) {
    byte[] bytes = new byte[16];
    for (int b = 0; b < 8; b++) {
      bytes[b] = (byte) (key[0] >>> (8 * b));
      bytes[8 + b] = (byte) (key[1] >>> (8 * b));
    }
    return Prg.fromKey(bytes, stream);
  }
}
