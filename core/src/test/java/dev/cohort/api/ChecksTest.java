package dev.cohort.api;

import static dev.cohort.api.Checks.invalid;
import static dev.cohort.api.Checks.require;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ChecksTest {

  @Test
  void require_conditionHolds_returns() {
    require(true, "never formatted: %d %d", 1); // a bad template is not even looked at
  }

  @Test
  void require_conditionFails_throwsTheFormattedMessage() {
    int t = 2;
    int n = 3;
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> require(2 * t < n, "threshold (%d) must be < parties / 2 (parties: %d)", t, n));
    assertEquals("threshold (2) must be < parties / 2 (parties: 3)", e.getMessage());
  }

  @Test
  void invalid_anyDefaultLocale_printsWhatConcatenationPrints() {
    Locale saved = Locale.getDefault();
    try {
      // Arabic (Egypt) formats %d with Arabic-Indic digits, German groups with '.'.
      for (Locale locale : new Locale[] {Locale.forLanguageTag("ar-EG"), Locale.GERMANY}) {
        Locale.setDefault(locale);
        long big = 1_234_567_890_123L;
        BigInteger p = BigInteger.TWO.pow(127).subtract(BigInteger.ONE);
        assertEquals(
            "P" + 12 + " sent " + big + " words; p = " + p + ", " + -7,
            invalid("P%d sent %d words; p = %s, %d", 12, big, p, -7).getMessage(),
            locale.toString());
      }
    } finally {
      Locale.setDefault(saved);
    }
  }
}
