package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.field.Field;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.random.Prg;
import dev.cohort.suite.ForwardingProtocol;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * SPDZ runs with one corrupt party, and what the honest parties' failures must look like after one.
 *
 * <p>The invariant: at most one party, the corrupt one, deviates from what the others run. Its
 * {@link Tamper} changes what it sends (through a {@link TamperingSuite} around its suite); the
 * honest parties are only watched (a {@link SendLog} never sees the words). Every party's suite is
 * wrapped alike (the engines compare their suites' class names), so a {@link Decorator} that makes
 * a party deviate does so at the corrupt party alone.
 */
final class CorruptParty {

  private CorruptParty() {}

  /** Where the honest parties report each message they send; it never sees the words. */
  @FunctionalInterface
  interface SendLog {
    void sent(int sender, Tamper.Message message, int peer, int count);
  }

  /** Wraps party {@code party}'s suite. */
  @FunctionalInterface
  interface Decorator {
    Suite decorate(int party, Suite suite);
  }

  // ---- suites ----

  /** SPDZ under {@code config} where party {@code corrupt} applies {@code tamper} (null: none). */
  static SuiteFactory factory(SpdzConfig config, int corrupt, Tamper tamper) {
    return factory(config, corrupt, tamper, null, (party, suite) -> suite);
  }

  /**
   * {@link #factory(SpdzConfig, int, Tamper)} where the honest parties report what they send to
   * {@code log} (null: they do not) and every party's suite is wrapped by {@code decorator}.
   */
  static SuiteFactory factory(
      SpdzConfig config, int corrupt, Tamper tamper, SendLog log, Decorator decorator) {
    return decorated(
        SpdzSuite.factory(config),
        (party, suite) -> {
          Tamper own =
              party == corrupt
                  ? tamper
                  : log == null
                      ? null
                      : (message, peer, words, count) -> log.sent(party, message, peer, count);
          return decorator.decorate(party, new TamperingSuite(suite, own));
        });
  }

  /** {@code factory} with every party's suite wrapped by {@code decorator}. */
  static SuiteFactory decorated(SuiteFactory factory, Decorator decorator) {
    return new SuiteFactory() {
      @Override
      public String name() {
        return factory.name();
      }

      @Override
      public Field field() {
        return factory.field();
      }

      @Override
      public void validate(int parties) {
        factory.validate(parties);
      }

      @Override
      public Suite create(int party, int parties, Prg prg) {
        return decorator.decorate(party, factory.create(party, parties, prg));
      }
    };
  }

  /**
   * {@code open}, an opening of {@code length} elements of {@code field}, that adds the values to
   * {@code into} if it completes with them at this party: what the party learned.
   */
  static RoundProtocol recordingOpened(
      RoundProtocol open, int length, Field field, List<BigInteger> into) {
    return new ForwardingProtocol(open) {
      @Override
      public boolean receive(int round, Inbox in) {
        boolean done = open.receive(round, in);
        if (done && open.opened() != null) {
          for (int i = 0; i < length; i++) {
            into.add(field.toBigInteger(open.opened(), i));
          }
        }
        return done;
      }
    };
  }

  // ---- tampers ----

  /**
   * Adds {@code delta} to element 0 of every {@code target} message with an element, to {@code
   * onlyPeer} or (negative) to every peer; check seeds and inputs' packed bits are words, not field
   * elements, so in those its lowest bit is flipped instead.
   */
  static Tamper add(Field field, long delta, Tamper.Message target, int onlyPeer) {
    long[] d = field.alloc(1);
    field.encode(delta, d, 0);
    return (message, peer, words, count) -> {
      if (message == target && count > 0 && (onlyPeer < 0 || peer == onlyPeer)) {
        if (message == Tamper.Message.CHECK_SEED || message == Tamper.Message.INPUT) {
          words[0] ^= 1;
        } else {
          field.add(words, 0, d, 0, words, 0, 1);
        }
      }
    };
  }

  /**
   * {@code tamper} on one {@code target} message to each peer: it skips the first {@code skip}
   * non-empty ones and leaves every one after the one it changed alone.
   */
  static Tamper once(Tamper.Message target, int skip, Tamper tamper) {
    Map<Integer, Integer> seen = new HashMap<>();
    return (message, peer, words, count) -> {
      if (message == target && count > 0 && seen.merge(peer, 1, Integer::sum) == skip + 1) {
        tamper.beforeSend(message, peer, words, count);
      }
    };
  }

  // ---- failures ----

  /** Every party's failure: {@code e} first, then the ones it suppressed. */
  static List<PartyFailedException> failures(PartyFailedException e) {
    List<PartyFailedException> failures = new ArrayList<>();
    failures.add(e);
    for (Throwable other : e.getSuppressed()) {
      failures.add((PartyFailedException) other);
    }
    return failures;
  }

  /** The failure of {@code party} (the last reported if several), or null if it did not fail. */
  static PartyFailedException failureOf(PartyFailedException e, int party) {
    PartyFailedException found = null;
    for (PartyFailedException failure : failures(e)) {
      if (failure.party().index() == party) {
        found = failure;
      }
    }
    return found;
  }

  /** All {@code parties} failed with an abort that starts with {@code prefix}. */
  static void assertEveryPartyAborts(PartyFailedException e, int parties, String prefix) {
    List<PartyFailedException> failures = failures(e);
    assertEquals(parties, failures.size(), "every party fails: " + e.getMessage());
    for (PartyFailedException failure : failures) {
      Throwable cause = failure.getCause();
      assertInstanceOf(AbortException.class, cause, () -> "cause: " + cause);
      assertTrue(cause.getMessage().startsWith(prefix), cause.getMessage());
    }
  }

  /**
   * Every one of {@code parties} but {@code corrupt} failed with an abort starting {@code prefix}.
   */
  static void assertHonestPartiesAbort(
      PartyFailedException e, int parties, int corrupt, String prefix) {
    assertHonestPartiesFail(e, parties, corrupt, AbortException.class, m -> m.startsWith(prefix));
  }

  /**
   * Every one of {@code parties} but {@code corrupt} failed with a cause of {@code type} whose
   * message {@code ok} accepts.
   */
  static void assertHonestPartiesFail(
      PartyFailedException e, int parties, int corrupt, Class<?> type, Predicate<String> ok) {
    int honest = 0;
    for (PartyFailedException failure : failures(e)) {
      if (failure.party().index() == corrupt) {
        continue;
      }
      honest++;
      Throwable cause = failure.getCause();
      assertInstanceOf(type, cause, () -> "cause: " + cause);
      assertTrue(ok.test(cause.getMessage()), cause.getMessage());
    }
    assertEquals(parties - 1, honest, "every honest party fails: " + e.getMessage());
  }
}
