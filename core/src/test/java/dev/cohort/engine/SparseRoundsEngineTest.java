package dev.cohort.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.plaintext.PlaintextSuite;
import dev.cohort.testing.ForwardingSuite;
import dev.cohort.testing.ForwardingSuiteFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The engine leaves out the frames no protocol of a round needs, from the protocols' own
 * declarations; a protocol that writes to a peer it declared it sends nothing is refused before
 * anything leaves, instead of its words vanishing or reaching a party that reads none.
 */
class SparseRoundsEngineTest {

  /** The plaintext suite, whose inputs declare that they send nobody anything. */
  private static ForwardingSuiteFactory lyingInputs() {
    return new ForwardingSuiteFactory(PlaintextSuite.factory(Fields.MERSENNE_61, 1)) {
      @Override
      public Suite create(int party, int parties, Prg prg) {
        return new ForwardingSuite(super.create(party, parties, prg)) {
          @Override
          public RoundProtocol input(int owner, long[] values, int length, int bits) {
            RoundProtocol real = delegate.input(owner, values, length, bits);
            return new RoundProtocol() {
              @Override
              public void send(int round, Outbox out) {
                real.send(round, out);
              }

              @Override
              public boolean receive(int round, Inbox in) {
                return real.receive(round, in);
              }

              @Override
              public boolean sendsTo(int round, int peer) {
                return false;
              }

              @Override
              public Shares shares() {
                return real.shares();
              }
            };
          }
        };
      }
    };
  }

  @Test
  void run_protocolWritesToAPeerItDeclaredItSendsNothing_isRefusedNamingThePeer() {
    try (LocalParties parties =
        new LocalParties(
            3,
            lyingInputs(),
            EngineConfig.defaults().withInsecureSeed(5),
            Duration.ofSeconds(20))) {
      PartyFailedException e =
          assertThrows(
              PartyFailedException.class, () -> parties.run(b -> b.open(b.input(0, 4, 8))));
      assertInstanceOf(IllegalStateException.class, e.getCause(), e.getMessage());
      assertEquals(
          "a protocol wrote 1 words to P1 in a round whose protocols all declared they send it"
              + " nothing",
          e.getCause().getMessage());
      assertEquals(0, e.party().index(), "the owner, which wrote, is named first");
    }
  }
}
