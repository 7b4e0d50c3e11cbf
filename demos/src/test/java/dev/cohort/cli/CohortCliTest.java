package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The {@code cohort} command line, run in-process through picocli: exit codes and output. */
class CohortCliTest {

  /** What one in-process run of {@code cohort} printed and returned. */
  private record Run(int exitCode, String out, String err) {}

  private static Run cohort(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = Cohort.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  /** The expected result, computed in the clear from the demo's data rule. */
  private static long expected(long seed, int parties, int length) {
    long[][] v = DemoData.vectors(seed, parties, length);
    long result = 0;
    for (int i = 0; i < length; i++) {
      result += v[0][i] * v[1][i];
    }
    for (int p = 2; p < parties; p++) {
      for (int i = 0; i < length; i++) {
        result += v[p][i];
      }
    }
    return result;
  }

  private static void assertOneLineError(Run run) {
    assertEquals(2, run.exitCode(), run.err());
    assertEquals("", run.out());
    assertTrue(run.err().startsWith("cohort: "), run.err());
    assertEquals(1, run.err().strip().lines().count(), "one line expected:\n" + run.err());
    assertFalse(run.err().contains("Exception"), run.err());
    assertFalse(run.err().contains("\tat "), run.err());
  }

  @Test
  void help_root_listsDemo() {
    Run run = cohort("--help");

    assertEquals(0, run.exitCode());
    assertTrue(run.out().contains("Usage: cohort"), run.out());
    assertTrue(run.out().lines().anyMatch(l -> l.strip().startsWith("demo ")), run.out());
  }

  @Test
  void help_demo_listsInnerProduct() {
    Run run = cohort("demo", "--help");

    assertEquals(0, run.exitCode());
    assertTrue(run.out().contains("inner-product"), run.out());
  }

  @Test
  void help_innerProduct_saysSeedOnlyMakesInputData() {
    Run run = cohort("demo", "inner-product", "--help");

    assertEquals(0, run.exitCode());
    assertTrue(run.out().contains("Seed of the demo's input data only"), run.out());
  }

  @Test
  void innerProduct_threeParties_printsMatchingResult() {
    Run run = cohort("demo", "inner-product", "--parties", "3", "--length", "50");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    long expected = expected(1, 3, 50);
    assertTrue(run.out().contains("result:    " + expected + " "), run.out());
    assertTrue(run.out().contains("plaintext: " + expected + " (match)"), run.out());
    assertFalse(run.out().contains("MISMATCH"), run.out());
    assertTrue(run.out().contains("suite:     bgw(m61)"), run.out());
    assertTrue(run.out().contains("threshold: 1"), run.out());
    for (String party : new String[] {"P0: ", "P1: ", "P2: "}) {
      assertTrue(run.out().contains(party), "metrics of " + party + "\n" + run.out());
    }
    assertTrue(run.out().contains("wall time: "), run.out());
    assertEquals("", run.err());
  }

  @Test
  void innerProduct_otherSeed_changesTheData() {
    Run run = cohort("demo", "inner-product", "--length", "20", "--seed", "7");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertTrue(run.out().contains("plaintext: " + expected(7, 3, 20) + " (match)"), run.out());
  }

  @Test
  void innerProduct_fivePartiesThresholdTwoM127_matches() {
    Run run =
        cohort(
            "demo",
            "inner-product",
            "--parties",
            "5",
            "--threshold",
            "2",
            "--field",
            "m127",
            "--length",
            "30");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertTrue(run.out().contains("threshold: 2"), run.out());
    assertTrue(run.out().contains("field:     m127"), run.out());
    assertTrue(run.out().contains("plaintext: " + expected(1, 5, 30) + " (match)"), run.out());
    assertTrue(run.out().contains("P4: "), run.out());
  }

  @Test
  void innerProduct_decimalPrime_matches() {
    // 2^64 - 59 is prime and holds the result of 10 values easily.
    Run run = cohort("demo", "inner-product", "--field", "18446744073709551557", "--length", "10");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertTrue(run.out().contains("plaintext: " + expected(1, 3, 10) + " (match)"), run.out());
  }

  @Test
  void innerProduct_twoParties_failsNamingBgwMinimum() {
    Run run = cohort("demo", "inner-product", "--parties", "2");

    assertOneLineError(run);
    assertTrue(run.err().contains("BGW needs at least 3 parties, got 2"), run.err());
  }

  @Test
  void innerProduct_unknownField_failsWithClearMessage() {
    Run run = cohort("demo", "inner-product", "--field", "nonsense");

    assertOneLineError(run);
    assertTrue(run.err().contains("--field"), run.err());
    assertTrue(run.err().contains("unknown field 'nonsense'"), run.err());
  }

  @Test
  void innerProduct_thresholdTooHigh_fails() {
    Run run = cohort("demo", "inner-product", "--parties", "4", "--threshold", "2");

    assertOneLineError(run);
    assertTrue(run.err().contains("threshold (2) must be < parties / 2 (parties: 4)"), run.err());
  }

  @Test
  void innerProduct_thresholdZero_fails() {
    Run run = cohort("demo", "inner-product", "--threshold", "0");

    assertOneLineError(run);
    assertTrue(run.err().contains("threshold (0) must be >= 1"), run.err());
  }

  @Test
  void innerProduct_fieldTooSmallForResult_fails() {
    Run run = cohort("demo", "inner-product", "--field", "1000003");

    assertOneLineError(run);
    assertTrue(run.err().contains("field p1000003 is too small"), run.err());
  }

  @Test
  void innerProduct_zeroLength_fails() {
    Run run = cohort("demo", "inner-product", "--length", "0");

    assertOneLineError(run);
    assertTrue(run.err().contains("length (0) must be between 1 and"), run.err());
  }

  @Test
  void innerProduct_notANumber_failsWithoutUsageDump() {
    Run run = cohort("demo", "inner-product", "--parties", "three");

    assertOneLineError(run);
    assertTrue(run.err().contains("'three' is not an int"), run.err());
  }

  @Test
  void innerProduct_verbose_printsStackTrace() {
    Run run = cohort("demo", "inner-product", "--parties", "2", "--verbose");

    assertEquals(2, run.exitCode());
    assertTrue(run.err().startsWith("cohort: BGW needs at least 3 parties"), run.err());
    assertTrue(run.err().contains("\tat "), run.err());
  }

  @Test
  void demoData_sameSeed_sameValuesInSixteenBitRange() {
    long[][] a = DemoData.vectors(3, 4, 500);
    long[][] b = DemoData.vectors(3, 4, 500);

    for (int p = 0; p < 4; p++) {
      for (int i = 0; i < 500; i++) {
        assertEquals(a[p][i], b[p][i]);
        assertTrue(a[p][i] >= -(1 << 15) && a[p][i] < (1 << 15), "value " + a[p][i]);
      }
    }
  }
}
