package dev.cohort.engine;

import dev.cohort.api.AbortException;

/**
 * The parties were started with different settings (suite, field, number of parties, batch size, or
 * a setting the application declared, {@link EngineConfig#withAgreed}): found when the engine
 * starts, before any input is used. The message names every setting that differs with both values.
 * An {@link AbortException}, as the run stops at once on every party; but the cause is the
 * configuration, not a misbehaving peer.
 */
public final class ConfigurationMismatchException extends AbortException {

  private static final long serialVersionUID = 1L;

  public ConfigurationMismatchException(String message) {
    super(message);
  }
}
