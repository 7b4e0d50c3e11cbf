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
 * Summing the peers' shares of an opening over 2^61 − 1 and 2^127 − 1 a block at a time: against
 * BigInteger sums, with the peers' elements in place in their frames or off the element grid
 * (copied into one spare buffer per peer), and with a share outside the field from any peer.
 */
class PeerSharesTest {

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

  private static long[][] shares(Field f, int parties, long seed) {
    Prg prg = Prg.seeded(seed);
    long[][] shares = new long[parties][];
    for (int k = 0; k < parties; k++) {
      shares[k] = f.alloc(COUNT);
      f.random(prg, shares[k], 0, COUNT);
      f.encode(f.modulus().subtract(BigInteger.ONE), shares[k], k); // p − 1 somewhere
    }
    return shares;
  }

  private static ShareExchange exchange(Field f, int self, int parties) {
    return new ShareExchange(f, self, parties);
  }

  @ParameterizedTest(name = "{3}: P{1} of {0}, {2} words before")
  @CsvSource({
    "2,0,0,m127",
    "2,1,1,m127",
    "3,0,0,m127",
    "3,1,1,m127",
    "3,2,3,m127",
    "4,3,1,m127",
    "5,2,0,m127",
    "5,0,1,m127",
    "2,1,0,m61",
    "3,0,0,m61",
    "3,2,1,m61",
    "4,1,0,m61",
    "5,3,0,m61"
  })
  void sum_inBlocks_matchesBigIntegerSums(int parties, int self, int skip, String field) {
    Field f = Fields.byName(field);
    long[][] shares = shares(f, parties, 50 + parties);
    PeerShares peers = new PeerShares(exchange(f, self, parties), inbox(shares, self, skip), COUNT);
    // this party's shares three words into a frame, as BeaverMultiply reads them back: off the
    // element grid over 2^127 − 1
    long[] frame = new long[3 + shares[self].length];
    System.arraycopy(shares[self], 0, frame, 3, shares[self].length);
    long[] sum = f.alloc(COUNT);
    for (int from = 0; from < COUNT; from += 512) {
      peers.sum(frame, 3, sum, from, Math.min(COUNT, from + 512));
    }
    peers.check();
    for (int i = 0; i < COUNT; i++) {
      BigInteger want = BigInteger.ZERO;
      for (long[] s : shares) {
        want = want.add(f.toBigInteger(s, i));
      }
      assertEquals(want.mod(f.modulus()), f.toBigInteger(sum, i), "element " + i);
    }
  }

  @ParameterizedTest(name = "{5}: P{1} of {0}, {2} words before, P{3} bad at {4}")
  @CsvSource({
    "3,0,0,2,1099,m127",
    "3,0,1,1,0,m127",
    "3,1,1,2,600,m127",
    "3,2,0,0,511,m127",
    "4,0,1,3,512,m127",
    "5,4,0,3,7,m127",
    "2,1,1,0,1023,m127",
    "3,0,0,2,1099,m61",
    "3,1,0,2,600,m61",
    "3,2,1,0,511,m61",
    "4,0,0,3,512,m61",
    "5,4,0,1,7,m61",
    "2,1,0,0,1023,m61"
  })
  void check_shareOutsideField_abortsNamingPeerAndElement(
      int parties, int self, int skip, int cheater, int element, String field) {
    Field f = Fields.byName(field);
    long[][] shares = shares(f, parties, 60 + element);
    if (f.words() == 2) {
      shares[cheater][2 * element] = -1L; // p: the low word of p is all ones, so this is >= p
      shares[cheater][2 * element + 1] = Long.MAX_VALUE;
    } else {
      shares[cheater][element] = element % 2 == 0 ? f.modulus().longValueExact() : -1L; // p, 2^64-1
    }
    PeerShares peers = new PeerShares(exchange(f, self, parties), inbox(shares, self, skip), COUNT);
    long[] sum = f.alloc(COUNT);
    for (int from = 0; from < COUNT; from += 512) {
      peers.sum(shares[self], 0, sum, from, Math.min(COUNT, from + 512));
    }
    AbortException e = assertThrows(AbortException.class, peers::check);
    assertEquals(
        "P"
            + cheater
            + " sent a value outside the field "
            + f.name()
            + " (element "
            + element
            + " of "
            + COUNT
            + "); a party is misbehaving or the parties use different fields",
        e.getMessage());
  }
}
