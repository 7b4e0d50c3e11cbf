package dev.cohort.spdz;

/**
 * How a corrupt party misbehaves: it may change the words it is about to send to one peer. A {@link
 * TamperingSuite} applies it to what the party's protocols write; an honest party's may watch what
 * is sent without changing it.
 */
@FunctionalInterface
interface Tamper {

  /** What the words are. */
  enum Message {
    /**
     * An input broadcast: {@code count} packed elements ({@link SpdzInput}), or, for values of a
     * declared bit length ({@link SpdzRangeInput}), {@code count} bits packed 64 a word.
     */
    INPUT,
    MULTIPLY,
    OPEN,
    /** The opening of this party's MAC check seed: {@code count} is in words. */
    CHECK_SEED,
    /** The opening of this party's σ in a MAC check: one packed element. */
    CHECK_SIGMA
  }

  /**
   * May change {@code words} ({@code count} packed elements, unless said otherwise) before they go
   * to {@code peer}.
   */
  void beforeSend(Message message, int peer, long[] words, int count);
}
