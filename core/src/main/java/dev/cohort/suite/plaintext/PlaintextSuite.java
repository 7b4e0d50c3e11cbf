package dev.cohort.suite.plaintext;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.PolynomialSuite;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;

/**
 * INSECURE: every party holds every value in the clear. The oracle that tests compare the real
 * suites against: it runs the same computations through the same engine with the simplest possible
 * gates. An input is broadcast by its owner (one round); everything else is local. Random values
 * come from a PRG seeded identically at every party, so all parties agree.
 */
public final class PlaintextSuite extends PolynomialSuite {

  private final Prg common;

  private PlaintextSuite(Field field, int party, int parties, long commonSeed) {
    super(field, party, parties);
    this.common = Prg.seeded(commonSeed);
  }

  /** A factory for the plaintext oracle; {@code commonSeed} drives its shared random values. */
  public static SuiteFactory factory(Field field, long commonSeed) {
    return new SuiteFactory() {
      @Override
      public String name() {
        return "plaintext(" + field.name() + ", INSECURE)";
      }

      @Override
      public Field field() {
        return field;
      }

      @Override
      public void validate(int parties) {
        if (parties < 1) {
          throw new IllegalArgumentException("parties (" + parties + ") must be >= 1");
        }
      }

      @Override
      public Suite create(int party, int parties, Prg prg) {
        return new PlaintextSuite(field, party, parties, commonSeed);
      }
    };
  }

  @Override
  public RoundProtocol setup() {
    return null;
  }

  @Override
  public RoundProtocol input(int owner, long[] values, int length) {
    long[] result = party == owner ? values.clone() : new long[length * words];
    return new RoundProtocol() {
      @Override
      public void send(int round, Outbox out) {
        if (party == owner) {
          for (int p = 0; p < parties; p++) {
            if (p != party) {
              out.write(p, result, 0, result.length);
            }
          }
        }
      }

      @Override
      public boolean receive(int round, Inbox in) {
        if (party != owner) {
          in.read(owner, result, 0, result.length);
        }
        return true;
      }

      @Override
      public Shares shares() {
        return new Shares(length, result, null);
      }
    };
  }

  @Override
  public RoundProtocol multiply(Shares a, Shares b) {
    long[] out = new long[a.length * words];
    field.mul(a.share, 0, b.share, 0, out, 0, a.length);
    return RoundProtocol.finished(new Shares(a.length, out, null), null);
  }

  @Override
  public RoundProtocol open(Shares a, int receiver) {
    return RoundProtocol.finished(null, receiver < 0 || receiver == party ? a.share : null);
  }

  @Override
  public RoundProtocol random(int length) {
    long[] out = new long[length * words];
    field.random(common, out, 0, length);
    return RoundProtocol.finished(new Shares(length, out, null), null);
  }

  @Override
  public RoundProtocol randomBits(int length) {
    long[] out = new long[length * words];
    long[] one = field.alloc(1);
    field.encode(1, one, 0);
    for (int i = 0; i < length; i++) {
      if ((common.nextLong() & 1) != 0) {
        System.arraycopy(one, 0, out, i * words, words);
      }
    }
    return RoundProtocol.finished(new Shares(length, out, null), null);
  }
}
