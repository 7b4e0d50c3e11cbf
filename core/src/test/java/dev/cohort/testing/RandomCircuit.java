package dev.cohort.testing;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A random arithmetic circuit and its plaintext evaluation, both generated from one seed: the
 * oracle that suite tests compare opened values against. The circuit is a fixed description (who
 * inputs what, which wires each gate combines); {@link #computation()} records it through the
 * {@link Numeric} API and {@link #expected} evaluates it with {@link BigInteger} arithmetic mod p,
 * independently of the engine and of the field kernels.
 *
 * <p>Wires, in order: every party's inputs ({@value #SCALARS} scalars as {@code long}, one as
 * {@code BigInteger}, a vector of {@value #VECTOR}), two public constants, then {@code layers}
 * layers of {@code width} gates. A gate takes its left operand from the layer just before it (so
 * the multiplicative depth grows with the layers) and its right operand from any earlier wire. The
 * outputs are the last layer, opened as one vector, then {@code extraOpens} earlier wires, each
 * opened alone.
 *
 * <p>Values wrap mod p, so compare outputs mod p: opened values come back in the symmetric range.
 */
public final class RandomCircuit {

  /** Long scalar inputs per party. */
  public static final int SCALARS = 3;

  /** Elements of each party's vector input. */
  public static final int VECTOR = 4;

  /**
   * How large a circuit to generate.
   *
   * @param bits the declared bit length of every input (inputs are signed values within it)
   * @param layers layers of gates after the inputs
   * @param width gates per layer
   * @param extraOpens earlier wires opened one by one, after the last layer
   */
  public record Shape(int bits, int layers, int width, int extraOpens) {

    /** Twenty-bit inputs, ten layers of a hundred gates, ten single opens. */
    public static final Shape DEFAULT = new Shape(20, 10, 100, 10);

    public Shape {
      if (bits < 2 || bits > 60 || layers < 1 || width < 1 || extraOpens < 0) {
        throw new IllegalArgumentException("bad shape: " + this);
      }
    }
  }

  private enum Op {
    ADD,
    SUB,
    MUL,
    MUL_CONSTANT,
    MUL_BIG_CONSTANT,
    ADD_CONSTANT,
    CONSTANT_SUB,
    NEGATE
  }

  // Multiplications three times as likely as each other op, so depth and degree grow.
  private static final Op[] OPS = {
    Op.ADD,
    Op.SUB,
    Op.MUL,
    Op.MUL,
    Op.MUL,
    Op.MUL_CONSTANT,
    Op.MUL_BIG_CONSTANT,
    Op.ADD_CONSTANT,
    Op.CONSTANT_SUB,
    Op.NEGATE
  };

  private record Gate(Op op, int left, int right, long constant, BigInteger bigConstant) {}

  private final int parties;
  private final Shape shape;
  private final long[][] scalarInputs; // [party][SCALARS]
  private final BigInteger[] bigInputs; // [party]
  private final long[][] vectorInputs; // [party][VECTOR]
  private final long knownLong;
  private final BigInteger knownBig;
  private final Gate[][] layers;
  private final int[] extraOpens; // wire indices
  private final int multiplications;

  private RandomCircuit(long seed, int parties, Shape shape) {
    if (parties < 1) {
      throw new IllegalArgumentException("parties (" + parties + ") must be >= 1");
    }
    this.parties = parties;
    this.shape = shape;
    Random random = new Random(seed);
    long min = -(1L << (shape.bits() - 1));
    long max = (1L << (shape.bits() - 1)) - 1;
    scalarInputs = new long[parties][SCALARS];
    bigInputs = new BigInteger[parties];
    vectorInputs = new long[parties][VECTOR];
    for (int p = 0; p < parties; p++) {
      for (int i = 0; i < SCALARS; i++) {
        scalarInputs[p][i] = inRange(random, min, max);
      }
      bigInputs[p] = BigInteger.valueOf(inRange(random, min, max));
      for (int i = 0; i < VECTOR; i++) {
        vectorInputs[p][i] = inRange(random, min, max);
      }
    }
    // The ends of the declared range are the likeliest to be mishandled.
    vectorInputs[0][0] = min;
    vectorInputs[0][1] = max;
    knownLong = random.nextLong();
    knownBig = new BigInteger(100, random).negate();

    int wires = inputWires();
    layers = new Gate[shape.layers()][shape.width()];
    int previousStart = 0;
    int muls = 0;
    for (int l = 0; l < shape.layers(); l++) {
      for (int g = 0; g < shape.width(); g++) {
        Op op = OPS[random.nextInt(OPS.length)];
        int left = previousStart + random.nextInt(wires - previousStart);
        int right = random.nextInt(wires);
        BigInteger big = new BigInteger(90, random).subtract(BigInteger.ONE.shiftLeft(89));
        layers[l][g] = new Gate(op, left, right, random.nextLong(), big);
        if (op == Op.MUL) {
          muls++;
        }
      }
      previousStart = wires;
      wires += shape.width();
    }
    multiplications = muls;
    extraOpens = new int[shape.extraOpens()];
    for (int i = 0; i < extraOpens.length; i++) {
      extraOpens[i] = random.nextInt(wires);
    }
  }

  private static long inRange(Random random, long min, long max) {
    return min + Math.floorMod(random.nextLong(), max - min + 1);
  }

  /** The circuit of {@code seed} for {@code parties} parties. */
  public static RandomCircuit generate(long seed, int parties, Shape shape) {
    return new RandomCircuit(seed, parties, shape);
  }

  /** The computation of the default-shaped circuit of {@code seed}. */
  public static Computation<BigInteger[]> circuit(long seed, int parties) {
    return generate(seed, parties, Shape.DEFAULT).computation();
  }

  /** The outputs of the default-shaped circuit of {@code seed}, in {@code [0, modulus)}. */
  public static BigInteger[] expected(long seed, int parties, BigInteger modulus) {
    return generate(seed, parties, Shape.DEFAULT).expected(modulus);
  }

  /** Multiplications of two secrets in the circuit (gates of kind {@code multiply}). */
  public int multiplications() {
    return multiplications;
  }

  /** Opened outputs: the last layer, then the extra opens. */
  public int outputs() {
    return shape.width() + shape.extraOpens();
  }

  private int inputWires() {
    return parties * (SCALARS + 1 + VECTOR) + 2;
  }

  /**
   * The circuit as a computation. Every party passes only its own inputs; the others pass zero or
   * null, so a suite that reads a value at a non-owner gets wrong results.
   */
  public Computation<BigInteger[]> computation() {
    return b -> {
      if (b.parties() != parties) {
        throw new IllegalStateException(
            "circuit built for " + parties + " parties, run on " + b.parties());
      }
      List<Secret> wires = new ArrayList<>();
      int me = b.myId();
      for (int p = 0; p < parties; p++) {
        boolean mine = p == me;
        for (int i = 0; i < SCALARS; i++) {
          wires.add(b.input(p, mine ? scalarInputs[p][i] : 0, shape.bits()));
        }
        wires.add(b.input(p, mine ? bigInputs[p] : null, shape.bits()));
        SecretVector v = b.input(p, mine ? vectorInputs[p] : null, VECTOR, shape.bits());
        for (int i = 0; i < VECTOR; i++) {
          wires.add(b.get(v, i));
        }
      }
      wires.add(b.known(knownLong));
      wires.add(b.known(knownBig));
      for (Gate[] layer : layers) {
        for (Gate g : layer) {
          wires.add(apply(b, g, wires.get(g.left()), wires.get(g.right())));
        }
      }
      List<Secret> last = wires.subList(wires.size() - shape.width(), wires.size());
      Deferred<BigInteger[]> lastLayer = b.openBig(b.vector(last));
      List<Deferred<BigInteger>> singles = new ArrayList<>();
      for (int w : extraOpens) {
        singles.add(b.openBig(wires.get(w)));
      }
      return () -> {
        BigInteger[] out = new BigInteger[outputs()];
        System.arraycopy(lastLayer.get(), 0, out, 0, shape.width());
        for (int i = 0; i < singles.size(); i++) {
          out[shape.width() + i] = singles.get(i).get();
        }
        return out;
      };
    };
  }

  private static Secret apply(Numeric b, Gate g, Secret x, Secret y) {
    switch (g.op()) {
      case ADD:
        return b.add(x, y);
      case SUB:
        return b.sub(x, y);
      case MUL:
        return b.mul(x, y);
      case MUL_CONSTANT:
        return b.mul(x, g.constant());
      case MUL_BIG_CONSTANT:
        return b.mul(x, g.bigConstant());
      case ADD_CONSTANT:
        return b.add(x, g.constant());
      case CONSTANT_SUB:
        return b.sub(g.constant(), x);
      case NEGATE:
        return b.negate(x);
      default:
        throw new AssertionError(g.op());
    }
  }

  /** The outputs evaluated in plaintext, each in {@code [0, modulus)}. */
  public BigInteger[] expected(BigInteger modulus) {
    List<BigInteger> wires = new ArrayList<>();
    for (int p = 0; p < parties; p++) {
      for (int i = 0; i < SCALARS; i++) {
        wires.add(BigInteger.valueOf(scalarInputs[p][i]).mod(modulus));
      }
      wires.add(bigInputs[p].mod(modulus));
      for (int i = 0; i < VECTOR; i++) {
        wires.add(BigInteger.valueOf(vectorInputs[p][i]).mod(modulus));
      }
    }
    wires.add(BigInteger.valueOf(knownLong).mod(modulus));
    wires.add(knownBig.mod(modulus));
    for (Gate[] layer : layers) {
      for (Gate g : layer) {
        wires.add(evaluate(g, wires.get(g.left()), wires.get(g.right())).mod(modulus));
      }
    }
    BigInteger[] out = new BigInteger[outputs()];
    for (int i = 0; i < shape.width(); i++) {
      out[i] = wires.get(wires.size() - shape.width() + i);
    }
    for (int i = 0; i < extraOpens.length; i++) {
      out[shape.width() + i] = wires.get(extraOpens[i]);
    }
    return out;
  }

  private static BigInteger evaluate(Gate g, BigInteger x, BigInteger y) {
    BigInteger c = BigInteger.valueOf(g.constant());
    switch (g.op()) {
      case ADD:
        return x.add(y);
      case SUB:
        return x.subtract(y);
      case MUL:
        return x.multiply(y);
      case MUL_CONSTANT:
        return x.multiply(c);
      case MUL_BIG_CONSTANT:
        return x.multiply(g.bigConstant());
      case ADD_CONSTANT:
        return x.add(c);
      case CONSTANT_SUB:
        return c.subtract(x);
      case NEGATE:
        return x.negate();
      default:
        throw new AssertionError(g.op());
    }
  }
}
