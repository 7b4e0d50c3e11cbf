package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.api.AbortException;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Summing the peers' shares of an opening over 2^127 − 1 a block at a time: against BigInteger
 * sums, with the peers' elements in place in their frames or off the element grid (copied into one
 * spare buffer per peer), and with a share outside the field from any peer.
 */
class PeerShares127Test {

  private static final Field F = Fields.MERSENNE_127;
  private static final int COUNT = 1100; // past two blocks of 512

  /** Party {@code self} of {@code parties}: every peer's frame holds {@code skip} words first. */
  private static Inbox inbox(long[][] shares, int self, int skip) {
    long[][] frames = new long[shares.length][];
    for (int k = 0; k < shares.length; k++) {
      if (k != self) {
        frames[k] = new long[skip + shares[k].length];
        System.arraycopy(shares[k], 0, frames[k], skip, shares[k].length);
      }
    }
    Inbox in = new Inbox(shares.length);
    in.reset(3, frames);
    for (int k = 0; k < shares.length; k++) {
      for (int w = 0; w < skip && k != self; w++) {
        in.read(k);
      }
    }
    return in;
  }

  private static long[][] shares(int parties, long seed) {
    Prg prg = Prg.seeded(seed);
    long[][] shares = new long[parties][];
    for (int k = 0; k < parties; k++) {
      shares[k] = F.alloc(COUNT);
      F.random(prg, shares[k], 0, COUNT);
      F.encode(F.modulus().subtract(BigInteger.ONE), shares[k], k); // p − 1 somewhere
    }
    return shares;
  }

  private static ShareExchange exchange(int self, int parties) {
    return new ShareExchange(F, self, parties);
  }

  @ParameterizedTest(name = "P{1} of {0}, {2} words before")
  @CsvSource({"2,0,0", "2,1,1", "3,0,0", "3,1,1", "3,2,3", "4,3,1", "5,2,0", "5,0,1"})
  void sum_inBlocks_matchesBigIntegerSums(int parties, int self, int skip) {
    long[][] shares = shares(parties, 50 + parties);
    PeerShares127 peers =
        new PeerShares127(exchange(self, parties), inbox(shares, self, skip), COUNT);
    long[] sum = F.alloc(COUNT);
    for (int from = 0; from < COUNT; from += 512) {
      peers.sum(shares[self], sum, from, Math.min(COUNT, from + 512));
    }
    peers.check();
    for (int i = 0; i < COUNT; i++) {
      BigInteger want = BigInteger.ZERO;
      for (long[] s : shares) {
        want = want.add(F.toBigInteger(s, i));
      }
      assertEquals(want.mod(F.modulus()), F.toBigInteger(sum, i), "element " + i);
    }
  }

  @ParameterizedTest(name = "P{1} of {0}, {2} words before, P{3} bad at {4}")
  @CsvSource({
    "3,0,0,2,1099",
    "3,0,1,1,0",
    "3,1,1,2,600",
    "3,2,0,0,511",
    "4,0,1,3,512",
    "5,4,0,3,7",
    "2,1,1,0,1023"
  })
  void check_shareOutsideField_abortsNamingPeerAndElement(
      int parties, int self, int skip, int cheater, int element) {
    long[][] shares = shares(parties, 60 + element);
    shares[cheater][2 * element] = -1L; // p: the low word of p is all ones, so this is >= p
    shares[cheater][2 * element + 1] = Long.MAX_VALUE;
    PeerShares127 peers =
        new PeerShares127(exchange(self, parties), inbox(shares, self, skip), COUNT);
    long[] sum = F.alloc(COUNT);
    for (int from = 0; from < COUNT; from += 512) {
      peers.sum(shares[self], sum, from, Math.min(COUNT, from + 512));
    }
    AbortException e = assertThrows(AbortException.class, peers::check);
    assertEquals(
        "P"
            + cheater
            + " sent a value outside the field "
            + F.name()
            + " (element "
            + element
            + " of "
            + COUNT
            + "); a party is misbehaving or the parties use different fields",
        e.getMessage());
  }
}
