package dev.cohort.spdz;

import dev.cohort.field.Field;

/**
 * Where a party's SPDZ preprocessing comes from: a trusted dealer, a file, or (later) a real
 * offline phase. Called once per party when its suite is created.
 */
@FunctionalInterface
public interface PreprocessingSource {

  /** The preprocessing of {@code party} among {@code parties} over {@code field}. */
  SpdzPreprocessing open(Field field, int party, int parties);
}
