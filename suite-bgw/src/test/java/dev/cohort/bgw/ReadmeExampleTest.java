package dev.cohort.bgw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cohort.api.Computation;
import dev.cohort.api.Secret;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Keeps the Java example in the top-level README.md compiling and correct: the code between the
 * markers below is the README's example, run here on BGW against plaintext arithmetic, and a second
 * test checks that the README still shows exactly this code.
 */
class ReadmeExampleTest {

  private static final String BEGIN = "// README-EXAMPLE-BEGIN";
  private static final String END = "// README-EXAMPLE-END";
  private static final long SEED = 20240601L;

  // README-EXAMPLE-BEGIN
  /** Each party holds one private number; all of them learn (x0 + x1) * x2, and nothing more. */
  static Computation<Long> sumTimesThird(long myValue) {
    return builder -> {
      // Every party runs this code; input(p, value, bits) reads value only at party p.
      Secret x0 = builder.input(0, myValue, 32);
      Secret x1 = builder.input(1, myValue, 32);
      Secret x2 = builder.input(2, myValue, 32);
      Secret y = builder.mul(builder.add(x0, x1), x2); // add: local; mul: one round
      return builder.open(y); // one round; every party gets the value
    };
  }

  /** Runs three parties as threads in this JVM over BGW; each party passes only its own value. */
  static long runLocally(long[] values, EngineConfig config) {
    LocalParties parties =
        new LocalParties(3, BgwSuite.factory(Fields.MERSENNE_61), config, Duration.ofSeconds(30));
    List<Result<Long>> results = parties.runEach(party -> sumTimesThird(values[party]));
    return results.get(0).value(); // P0's view; every party opened the same value
  }

  // README-EXAMPLE-END

  private static EngineConfig seeded() {
    return EngineConfig.defaults().withInsecureSeed(SEED);
  }

  @Test
  void example_fixedValues_matchesPlaintext() {
    assertEquals((3 + 4) * 5, runLocally(new long[] {3, 4, 5}, seeded()));
    assertEquals((-7 + 2) * 11, runLocally(new long[] {-7, 2, 11}, seeded()));
    long min = Integer.MIN_VALUE;
    assertEquals((min + 0) * 3, runLocally(new long[] {min, 0, 3}, seeded()));
  }

  @Test
  void example_randomValues_everyPartyGetsPlaintextResult() {
    Random random = new Random(SEED); // test data only
    for (int trial = 0; trial < 5; trial++) {
      long[] values = new long[3];
      for (int p = 0; p < 3; p++) {
        values[p] = random.nextInt(2_000_001) - 1_000_000;
      }
      long expected = (values[0] + values[1]) * values[2];

      List<Result<Long>> results =
          new LocalParties(
                  3, BgwSuite.factory(Fields.MERSENNE_61), seeded(), Duration.ofSeconds(30))
              .runEach(party -> sumTimesThird(values[party]));

      for (Result<Long> r : results) {
        assertEquals(expected, r.value(), "P" + r.metrics().party());
      }
    }
  }

  @Test
  void readme_showsTheExampleVerbatim() throws IOException {
    Path root = repositoryRoot();
    String source =
        read(root.resolve("suite-bgw/src/test/java/dev/cohort/bgw/ReadmeExampleTest.java"));
    String example = stripIndent(between(source, BEGIN, END));
    List<String> blocks = javaBlocks(read(root.resolve("README.md")));

    String block =
        blocks.stream()
            .filter(b -> b.contains(example))
            .findFirst()
            .orElseGet(
                () ->
                    fail(
                        "README.md has no ```java block containing the example between "
                            + BEGIN
                            + " and "
                            + END
                            + " in ReadmeExampleTest; copy it from there:\n"
                            + example));
    // The block's imports must be this file's imports (or classes of its own package, which it
    // needs no import for), so they stay right too.
    for (String line : block.lines().toList()) {
      if (line.startsWith("import ")) {
        assertTrue(
            source.lines().anyMatch(l -> l.equals(line)) || importsFromThisPackage(root, line),
            "README.md imports what ReadmeExampleTest does not: " + line);
      }
    }
  }

  private static boolean importsFromThisPackage(Path root, String importLine) {
    String prefix = "import " + ReadmeExampleTest.class.getPackageName() + ".";
    if (!importLine.startsWith(prefix) || !importLine.endsWith(";")) {
      return false;
    }
    String simpleName = importLine.substring(prefix.length(), importLine.length() - 1);
    return Files.isRegularFile(
        root.resolve("suite-bgw/src/main/java/dev/cohort/bgw/" + simpleName + ".java"));
  }

  /** The directory holding README.md and mvnw, found from surefire's working directory up. */
  private static Path repositoryRoot() {
    Path start = Path.of("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("README.md"))
          && Files.isRegularFile(dir.resolve("mvnw"))
          && Files.isDirectory(dir.resolve("suite-bgw"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no README.md next to mvnw in " + start + " or above");
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n");
  }

  /** The lines strictly between the marker lines. */
  private static String between(String text, String begin, String end) {
    List<String> lines = text.lines().toList();
    int from = -1;
    int to = -1;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.equals(begin) && from < 0) {
        from = i;
      } else if (line.equals(end) && from >= 0) {
        to = i;
        break;
      }
    }
    if (from < 0 || to < 0) {
      throw new IllegalStateException("markers " + begin + " / " + end + " not found");
    }
    return String.join("\n", lines.subList(from + 1, to)) + "\n";
  }

  /** Removes the indentation common to all non-blank lines, trailing blanks and blank edges. */
  private static String stripIndent(String text) {
    List<String> lines = new ArrayList<>(text.lines().toList());
    while (!lines.isEmpty() && lines.get(0).isBlank()) {
      lines.remove(0);
    }
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
      lines.remove(lines.size() - 1);
    }
    int indent = Integer.MAX_VALUE;
    for (String line : lines) {
      if (!line.isBlank()) {
        indent = Math.min(indent, line.length() - line.stripLeading().length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String line : lines) {
      sb.append(line.isBlank() ? "" : line.substring(indent).stripTrailing()).append('\n');
    }
    return sb.toString();
  }

  /** The contents of the fenced ```java blocks, each ending with a newline. */
  private static List<String> javaBlocks(String markdown) {
    List<String> blocks = new ArrayList<>();
    StringBuilder current = null;
    for (String line : markdown.lines().toList()) {
      if (current == null) {
        if (line.strip().equals("```java")) {
          current = new StringBuilder();
        }
      } else if (line.strip().equals("```")) {
        blocks.add(current.toString());
        current = null;
      } else {
        current.append(line.stripTrailing()).append('\n');
      }
    }
    return blocks;
  }
}
