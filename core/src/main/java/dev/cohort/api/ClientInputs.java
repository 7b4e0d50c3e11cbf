package dev.cohort.api;

/**
 * The inputs that a session's clients submitted, already secret-shared among the parties and
 * validated: {@link #contributors()} clients, each with {@link #columns()} values, value {@code j}
 * declared {@link #bits(int)}-bit signed. A computation reads one column at a time with {@link
 * Numeric#clientInputs(ClientInputs, int)}: the {@code j}-th value of every contributor, in the
 * order all parties agreed on.
 *
 * <p>Only an input server of this framework makes instances; each party holds its own (its own
 * shares of the same values) and passes it to the computation it runs.
 */
public interface ClientInputs {

  /** How many clients' submissions the session took (after excluding invalid ones). */
  int contributors();

  /** How many values each contributor submitted. */
  int columns();

  /** The declared bit length of column {@code column}: values lie in [-2^(b-1), 2^(b-1)). */
  int bits(int column);
}
