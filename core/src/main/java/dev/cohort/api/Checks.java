package dev.cohort.api;

import java.util.Locale;

/**
 * Preconditions whose message is a format string: {@code require(t < n, "threshold (%d) must be <
 * parties / 2 (parties: %d)", t, n)} in one statement instead of an {@code if} around a
 * concatenation. Messages follow STYLE.md §7: the name, the value and the expectation, never a
 * share, key, input or output.
 *
 * <p>Messages are formatted with {@link Locale#ROOT}, so {@code %d} prints the same ASCII digits,
 * without grouping, as string concatenation does, whatever the default locale: a message keeps its
 * exact text when a check moves to this class.
 *
 * <p>{@link #require} boxes its arguments even when the condition holds. On a path that runs per
 * batch or per gate, keep the test inline and build only the exception: {@code if (bad) throw
 * invalid(...)}.
 */
public final class Checks {

  private Checks() {}

  /**
   * Throws {@link IllegalArgumentException} with the formatted message unless {@code condition}
   * holds.
   *
   * @param template a {@link String#format} template, formatted with {@link Locale#ROOT}
   */
  public static void require(boolean condition, String template, Object... args) {
    if (!condition) {
      throw invalid(template, args);
    }
  }

  /**
   * The {@link IllegalArgumentException} that {@link #require} throws, for callers that test the
   * condition themselves.
   */
  public static IllegalArgumentException invalid(String template, Object... args) {
    return new IllegalArgumentException(String.format(Locale.ROOT, template, args));
  }
}
