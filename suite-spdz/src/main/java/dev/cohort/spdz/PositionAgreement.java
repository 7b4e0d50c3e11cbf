package dev.cohort.spdz;

import dev.cohort.api.PartyId;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parties agree, in the set-up round, on where they stand in their preprocessing: each sends
 * the id of its dealing and how much of each kind it has drawn, and every party moves forward to
 * the largest position any party reports. A party records a draw before it uses the material, so a
 * party that crashed or was stopped may stand ahead of the others by what it drew last; without
 * this the parties would use different material from then on and every MAC check would fail.
 * Nothing a party has drawn is used again: positions only move forward, and the material skipped is
 * skipped by every party.
 *
 * <p>What a corrupt party gains by lying: reporting more than it drew makes the honest parties skip
 * material (at worst they run out: denial of service, which it can cause anyway by aborting);
 * reporting less changes nothing (the largest position wins); reporting different positions to
 * different parties leaves the honest parties on different material, so the first MAC check fails
 * and the run aborts before any opening but Beaver's uniformly masked ones (check-before-open),
 * which is an abort it could cause anyway. A different dealing id, or preprocessing with positions
 * at one party and without at another, is a configuration error named here, before any material is
 * used.
 *
 * <pre>
 * message (every peer, 3 + 2n + 3 words): has positions (0 or 1) | dealing id (2) | used (3 + 2n)
 * </pre>
 */
final class PositionAgreement implements RoundProtocol {

  private static final Logger log = LoggerFactory.getLogger(PositionAgreement.class);

  private final SpdzPreprocessing preprocessing;
  private final int self;
  private final int parties;
  private final long[] message;
  private boolean done;

  PositionAgreement(SpdzPreprocessing preprocessing, int self, int parties) {
    this.preprocessing = preprocessing;
    this.self = self;
    this.parties = parties;
    this.message = new long[words(parties)];
    SpdzPreprocessing.Positions mine = preprocessing.positions();
    if (mine != null) {
      if (mine.used().length != kinds(parties) || mine.dealing().length != 2) {
        throw new IllegalStateException("positions of the wrong shape from " + preprocessing);
      }
      message[0] = 1;
      message[1] = mine.dealing()[0];
      message[2] = mine.dealing()[1];
      System.arraycopy(mine.used(), 0, message, 3, mine.used().length);
    }
  }

  /** The kinds of material among {@code parties} parties: three, and two per owner. */
  static int kinds(int parties) {
    return 3 + 2 * parties;
  }

  private static int words(int parties) {
    return 3 + kinds(parties);
  }

  @Override
  public boolean isDone() {
    return done;
  }

  @Override
  public void send(int round, Outbox out) {
    for (int p = 0; p < parties; p++) {
      if (p != self) {
        out.write(p, message, 0, message.length);
      }
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    long[] theirs = new long[message.length];
    long[] agreed = Arrays.copyOfRange(message, 3, message.length);
    int ahead = -1;
    for (int p = 0; p < parties; p++) {
      if (p == self) {
        continue;
      }
      in.read(p, theirs, 0, theirs.length);
      if (theirs[0] != message[0]) {
        throw new IllegalArgumentException(
            PartyId.of(p)
                + (theirs[0] == 1
                    ? " reads its SPDZ preprocessing from dealer files"
                    : " uses an in-process dealer")
                + ", "
                + PartyId.of(self)
                + (message[0] == 1 ? " dealer files" : " an in-process dealer")
                + ": give every party the files of one dealing (or every party the same dealer"
                + " seed)");
      }
      if (message[0] == 0) {
        continue;
      }
      if (theirs[1] != message[1] || theirs[2] != message[2]) {
        throw new IllegalArgumentException(
            PartyId.of(p)
                + "'s SPDZ preprocessing is of another dealing than "
                + PartyId.of(self)
                + "'s (dealing "
                + id(theirs)
                + ", this party's "
                + id(message)
                + "): give every party its file of one dealing ('cohort preprocess' writes them"
                + " together)");
      }
      for (int k = 0; k < agreed.length; k++) {
        if (theirs[3 + k] < 0) {
          throw new IllegalArgumentException(PartyId.of(p) + " sent a negative position");
        }
        if (theirs[3 + k] > agreed[k]) {
          agreed[k] = theirs[3 + k];
          ahead = p;
        }
      }
    }
    if (ahead >= 0) {
      log.info(
          "{} continues its SPDZ preprocessing where the parties furthest ahead stopped (used"
              + " {} before, now {}): the material in between is skipped, never used",
          PartyId.of(self),
          Arrays.toString(Arrays.copyOfRange(message, 3, message.length)),
          Arrays.toString(agreed));
      preprocessing.skipTo(agreed);
    }
    done = true;
    return true;
  }

  private static String id(long[] message) {
    return String.format("%016x%016x", message[2], message[1]);
  }
}
