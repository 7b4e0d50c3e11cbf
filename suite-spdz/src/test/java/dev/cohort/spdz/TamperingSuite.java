package dev.cohort.spdz;

import dev.cohort.suite.ForwardingProtocol;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.testing.ForwardingSuite;
import java.util.Arrays;

/**
 * A party's SPDZ suite whose messages pass through a {@link Tamper} on their way out: every
 * interactive gate's protocol writes its round into a scratch outbox, the tamper sees (and may
 * change) a copy of the message at the head of each peer's words, and the words go out. Nothing in
 * the suite knows: the protocols run exactly as an honest party's, only what leaves differs, as
 * when a corrupt party rewrites its traffic. With no tamper the protocols are not wrapped at all;
 * every party's suite is still a {@code TamperingSuite}, as the engines compare their suites' class
 * names.
 *
 * <p>The head of each message, by gate: an input's, a multiplication's and an opening's words are
 * the whole message ({@link Tamper.Message#INPUT}, {@link Tamper.Message#MULTIPLY}, {@link
 * Tamper.Message#OPEN}); a {@link MacCheck}'s round 0 starts with its seed ({@link
 * Tamper.Message#CHECK_SEED}, two words) and its round 2 with its σ ({@link
 * Tamper.Message#CHECK_SIGMA}, one element). A round that writes nothing to a peer is not shown.
 */
final class TamperingSuite extends ForwardingSuite {

  private static final int SEED_WORDS = 2; // MacCheck's seed

  private final Tamper tamper; // null: honest, unwatched

  TamperingSuite(Suite spdz, Tamper tamper) {
    super(spdz);
    this.tamper = tamper;
  }

  /** What a protocol writes at the head of each peer's words in a round. */
  private record Head(Tamper.Message message, int words, int count) {}

  /** Rewrites the words a protocol wrote to one peer in one round (a copy: never empty). */
  @FunctionalInterface
  interface Rewrite {
    long[] rewrite(int round, int peer, long[] words);
  }

  @Override
  public RoundProtocol input(int owner, long[] values, int length) {
    return whole(delegate.input(owner, values, length), Tamper.Message.INPUT, length);
  }

  @Override
  public RoundProtocol input(int owner, long[] values, int length, int bits) {
    RoundProtocol input = delegate.input(owner, values, length, bits);
    return whole(input, Tamper.Message.INPUT, Math.multiplyExact(length, bits)); // count: bits
  }

  @Override
  public RoundProtocol multiply(Shares a, Shares b) {
    return whole(delegate.multiply(a, b), Tamper.Message.MULTIPLY, 2 * a.length); // d, then e
  }

  @Override
  public RoundProtocol open(Shares a, int receiver) {
    return whole(delegate.open(a, receiver), Tamper.Message.OPEN, a.length);
  }

  @Override
  public RoundProtocol check(boolean end) {
    RoundProtocol check = delegate.check(end);
    if (tamper == null || !(check instanceof MacCheck)) {
      return check; // a BroadcastCheck sends only its digest
    }
    Head seed = new Head(Tamper.Message.CHECK_SEED, SEED_WORDS, SEED_WORDS);
    Head sigma = new Head(Tamper.Message.CHECK_SIGMA, field().words(), 1);
    return rewritten(
        check,
        myId(),
        parties(),
        (round, peer, words) -> round == 0 ? at(seed, peer, words) : at(sigma, peer, words),
        round -> round != 1);
  }

  private RoundProtocol whole(RoundProtocol protocol, Tamper.Message message, int count) {
    if (tamper == null) {
      return protocol;
    }
    return rewritten(
        protocol,
        myId(),
        parties(),
        (round, peer, words) -> at(new Head(message, words.length, count), peer, words),
        round -> true);
  }

  /** {@code words} with the tamper applied to a copy of their head {@code head}. */
  private long[] at(Head head, int peer, long[] words) {
    int n = Math.min(head.words(), words.length);
    long[] message = Arrays.copyOf(words, n);
    tamper.beforeSend(head.message(), peer, message, head.count());
    System.arraycopy(message, 0, words, 0, n);
    return words;
  }

  /** Which rounds of a protocol are rewritten. */
  @FunctionalInterface
  interface Rounds {
    boolean rewritten(int round);
  }

  /**
   * {@code protocol} at party {@code self} of {@code parties}, whose words to each peer in the
   * rounds {@code rounds} selects go out as {@code rewrite} returns them.
   */
  static RoundProtocol rewritten(
      RoundProtocol protocol, int self, int parties, Rewrite rewrite, Rounds rounds) {
    return new ForwardingProtocol(protocol) {
      @Override
      public void send(int round, Outbox out) {
        if (!rounds.rewritten(round)) {
          protocol.send(round, out);
          return;
        }
        Outbox scratch = new Outbox(self, parties);
        protocol.send(round, scratch);
        for (int peer = 0; peer < parties; peer++) {
          int length = peer == self ? 0 : scratch.length(peer);
          if (length > 0) {
            long[] words =
                rewrite.rewrite(round, peer, Arrays.copyOf(scratch.buffer(peer), length));
            out.write(peer, words, 0, words.length);
          }
        }
      }
    };
  }
}
