package dev.cohort.bench;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.SecretVector;
import java.util.SplittableRandom;

/**
 * The multiplication workloads the suite benchmarks share: party 0 inputs {@code xs}, party 1
 * inputs {@code ys} (every party runs the same circuit; values are read only at their owner).
 */
final class Workloads {

  final int n;
  final int bits;
  final long[] xs;
  final long[] ys;

  /** n random 32-bit values for each of the two input parties, from a fixed seed. */
  Workloads(int n, int bits) {
    this.n = n;
    this.bits = bits;
    SplittableRandom random = new SplittableRandom(42);
    xs = new long[n];
    ys = new long[n];
    for (int i = 0; i < n; i++) {
      xs[i] = random.nextInt();
      ys[i] = random.nextInt();
    }
  }

  /** Both inputs and one vector multiplication of n elements. */
  Computation<SecretVector> multiply() {
    return b -> {
      SecretVector x = b.input(0, xs, n, bits);
      SecretVector y = b.input(1, ys, n, bits);
      return Deferred.of(b.mul(x, y));
    };
  }

  /** Additions per element in {@link #add}. */
  static final int ADDS = 100;

  /**
   * Both inputs, then {@value #ADDS} dependent vector additions z ← z + y of n elements (local: no
   * round): {@value #ADDS}·n additions on top of {@link #inputs}.
   */
  Computation<SecretVector> add() {
    return b -> {
      SecretVector x = b.input(0, xs, n, bits);
      SecretVector y = b.input(1, ys, n, bits);
      SecretVector z = x;
      for (int i = 0; i < ADDS; i++) {
        z = b.add(z, y);
      }
      return Deferred.of(z);
    };
  }

  /** The same inputs without the multiplication: the baseline to subtract. */
  Computation<SecretVector> inputs() {
    return b -> {
      b.input(0, xs, n, bits);
      return Deferred.of(b.input(1, ys, n, bits));
    };
  }
}
