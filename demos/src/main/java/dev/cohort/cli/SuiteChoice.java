package dev.cohort.cli;

import dev.cohort.bgw.BgwConfig;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.spdz.SpdzConfig;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.SuiteFactory;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * The suite that a demo's {@code --suite}, {@code --field}, {@code --preprocessing} and {@code
 * --insecure-dealer-seed} ask for. Mistakes throw {@link IllegalArgumentException} with a message
 * for the user.
 *
 * @param name bgw or spdz
 * @param field the field, or null for the suite's default (2^61 − 1 for BGW, 2^127 − 1 for SPDZ)
 * @param preprocessing SPDZ dealer files, or null for the in-process dealer
 * @param dealerSeed the in-process dealer's seed, or null for a random one (one JVM only)
 * @param threads the threads each party splits its large local kernels over ({@code --threads})
 */
record SuiteChoice(String name, Field field, Path preprocessing, Long dealerSeed, int threads) {

  /** One thread per party. */
  SuiteChoice(String name, Field field, Path preprocessing, Long dealerSeed) {
    this(name, field, preprocessing, dealerSeed, 1);
  }

  /** The factory; {@code multiProcess} when every party runs in its own process. */
  SuiteFactory factory(boolean multiProcess) {
    switch (name) {
      case "bgw" -> {
        if (preprocessing != null || dealerSeed != null) {
          throw new IllegalArgumentException(
              "--preprocessing and --insecure-dealer-seed are for --suite spdz");
        }
        return BgwSuite.factory(
            BgwConfig.of(field == null ? Fields.MERSENNE_61 : field).withThreads(threads));
      }
      case "spdz" -> {
        Field f = field == null ? Fields.MERSENNE_127 : field;
        if (preprocessing != null) {
          if (dealerSeed != null) {
            throw new IllegalArgumentException(
                "--preprocessing and --insecure-dealer-seed exclude each other");
          }
          return SpdzSuite.factory(SpdzConfig.dealerFiles(f, preprocessing).withThreads(threads));
        }
        if (dealerSeed == null && multiProcess) {
          throw new IllegalArgumentException(
              "with --party, SPDZ needs --preprocessing DIR or the same --insecure-dealer-seed"
                  + " on every party");
        }
        long seed = dealerSeed != null ? dealerSeed : new SecureRandom().nextLong();
        return SpdzSuite.factory(SpdzConfig.insecureDealer(f, seed).withThreads(threads));
      }
      default ->
          throw new IllegalArgumentException("suite '" + name + "' is not one of: bgw, spdz");
    }
  }
}
