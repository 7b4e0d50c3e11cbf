package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.parallel.Workers;
import java.nio.file.Path;

/**
 * Configuration of the SPDZ online suite.
 *
 * <p>MAC soundness: a forged value passes one MAC check with probability about 2^−64 over the
 * default 2^127 − 1 (the check's random coefficients are 64 bits wide on fields wider than 64 bits,
 * which halves its products; see {@link MacCheck}), and about 2/p, 2^−60, over 2^61 − 1, accepted
 * for speed. Fields under 61 bits are refused.
 *
 * <p>When values are checked: every opened value is checked by a MAC check before the run's results
 * leave the engine, and mid-run once {@code checkEvery} values are unchecked. Values opened inside
 * a {@code seq} or {@code loop} step and used there (a loop condition, a branch taken on an opened
 * value) are used <em>before</em> they are checked: a cheat in them is caught only at the next MAC
 * check, before any result of the run is returned, as in MP-SPDZ. Such a cheat can steer which
 * branch or how many loop iterations run, but no result computed after it is revealed. A step
 * should therefore not hand an opened value to anything outside the computation: return it as a
 * result instead.
 *
 * <p>A failed MAC check burns the MAC key of the preprocessing: every honest σ_i was opened before
 * the sum was checked, which may reveal α to the cheater. The suite tells {@code preprocessing}
 * before it opens σ_i and again when the check passes ({@link SpdzPreprocessing#beforeMacReveal()}
 * and {@link SpdzPreprocessing#macCheckPassed()}); dealer files and the in-process dealer's source
 * then refuse material whose check was opened and never passed. Deal fresh material then.
 *
 * <p>A MAC check aborts every honest party that sees the cheat, with a message that names the check
 * and why it failed. A cheater who sends different messages to different parties may be seen by
 * only some honest parties: the others then fail with the abort those parties send them, or, where
 * the cheat came in the last round of the run, may finish (security with abort, not unanimous
 * abort).
 *
 * @param field the field, {@link Fields#MERSENNE_127} by default
 * @param preprocessing where each party's preprocessed material comes from
 * @param checkEvery a MAC check starts at the next round boundary once this many opened values are
 *     unchecked (and always before results leave the engine)
 * @param description how {@code preprocessing} reads in reports, e.g. {@code insecure dealer}
 * @param threads the threads a party splits its large local kernels over (the masked differences
 *     and the Beaver combination of a multiplication, the sums of opened shares, the MAC check's
 *     coefficients and sums); 1, the default, runs everything on the party's own thread. Results
 *     and messages are the same bits with any number, so parties may differ in it
 */
public record SpdzConfig(
    Field field,
    PreprocessingSource preprocessing,
    int checkEvery,
    String description,
    int threads) {

  /** The smallest field accepted: 2^61 − 1, a MAC forgery chance of about 2^−60 per check. */
  public static final int MIN_FIELD_BITS = 61;

  /** The default number of unchecked opened values that triggers a check before the end. */
  public static final int DEFAULT_CHECK_EVERY = 1 << 20;

  public SpdzConfig {
    if (field == null || preprocessing == null || description == null) {
      throw new IllegalArgumentException("field, preprocessing and description must be set");
    }
    if (field.bitLength() < MIN_FIELD_BITS) {
      throw new IllegalArgumentException(
          "SPDZ needs a field of at least "
              + MIN_FIELD_BITS
              + " bits for MAC soundness, not "
              + field.name()
              + " ("
              + field.bitLength()
              + " bits)");
    }
    if (checkEvery < 1) {
      throw new IllegalArgumentException("checkEvery (" + checkEvery + ") must be >= 1");
    }
    if (threads < 1 || threads > Workers.MAX_THREADS) {
      throw new IllegalArgumentException(
          "threads (" + threads + ") must be in [1, " + Workers.MAX_THREADS + "]");
    }
  }

  /** One thread. */
  public SpdzConfig(
      Field field, PreprocessingSource preprocessing, int checkEvery, String description) {
    this(field, preprocessing, checkEvery, description, 1);
  }

  /**
   * Preprocessing from {@code source}, over {@code field}, with the default {@code checkEvery}: the
   * general factory for material that does not come from the in-process dealer.
   *
   * @param description how {@code source} reads in reports, e.g. {@code dealer files in /data}
   */
  public static SpdzConfig of(Field field, PreprocessingSource source, String description) {
    return new SpdzConfig(field, source, DEFAULT_CHECK_EVERY, description);
  }

  /**
   * Each party's preprocessing read from its file in {@code directory}, as written by {@link
   * DealerFiles#write}, over {@code field}: the configuration for runs whose secrets matter. It
   * reads as {@code dealer files in <directory>} in reports.
   */
  public static SpdzConfig dealerFiles(Field field, Path directory) {
    return of(field, DealerFiles.source(directory), "dealer files in " + directory);
  }

  /**
   * The in-process dealer seeded with {@code seed}, over {@code field}: INSECURE, every party (and
   * anyone) who knows the seed knows every secret. For tests and benchmarks. After a MAC check of a
   * party failed (or was interrupted) with this config, its source refuses to deal to that party
   * again in this JVM; a new config from the same seed would deal the same key again. Real runs use
   * {@link #dealerFiles} (or {@link #of} with another source).
   */
  public static SpdzConfig insecureDealer(Field field, long seed) {
    return new SpdzConfig(
        field, InsecureDealer.source(seed), DEFAULT_CHECK_EVERY, "insecure dealer");
  }

  /** {@link #insecureDealer(Field, long)} over the default field 2^127 − 1: INSECURE. */
  public static SpdzConfig insecureDealer(long seed) {
    return insecureDealer(Fields.MERSENNE_127, seed);
  }

  public SpdzConfig withCheckEvery(int openedValues) {
    return new SpdzConfig(field, preprocessing, openedValues, description, threads);
  }

  /** Large local kernels split over {@code n} threads (see {@code threads} above). */
  public SpdzConfig withThreads(int n) {
    return new SpdzConfig(field, preprocessing, checkEvery, description, n);
  }
}
