package dev.cohort.spdz;

/**
 * SPDZ preprocessing that cannot serve what the computation needs: a kind ran out, or the material
 * is refused because a MAC check failed (or was interrupted) on it and its MAC key may be known to
 * a cheating party. The message names the source, the kind and how much was needed; the remedy is
 * fresh material ({@code cohort preprocess}). An {@link IllegalStateException}: the state of the
 * material, not the arguments, is at fault.
 */
public final class MaterialException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public MaterialException(String message) {
    super(message);
  }
}
