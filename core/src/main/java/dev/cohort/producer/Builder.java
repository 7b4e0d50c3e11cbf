package dev.cohort.producer;

import dev.cohort.api.ClientInputs;
import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;
import dev.cohort.api.StepFunction;
import dev.cohort.field.Field;
import dev.cohort.gate.Gates;
import dev.cohort.gate.Graph;
import dev.cohort.gate.Value;
import dev.cohort.suite.ImportedColumns;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The {@link Numeric} builder of one scope: each call checks its arguments, encodes its public
 * operands and records a gate in the scope through the graph's {@link Gates}; scope calls ({@link
 * #seq}, {@link #par}, {@link #loop}) make the producers of this package. One builder is made with
 * the {@link ParallelProtocolProducer} of every step, branch, loop iteration and run.
 *
 * <p>Why one file of over 400 lines: it implements the 57 methods of {@link Numeric}, and a builder
 * is one object per scope, so it cannot delegate to collaborator objects without an allocation per
 * step. Each method is therefore a few lines of checks and one call: the gates and their shortcut
 * for operands already computed live in {@link Gates}, the encoding of inputs and constants and the
 * party and bit-length checks in {@link Encoding}, linear forms in {@link LinearTerms},
 * placeholders for later steps' secrets in {@link Steps}.
 */
final class Builder implements Numeric {

  private final Graph graph;
  private final ParallelProtocolProducer scope;
  private final Gates gates;
  private final Field field;

  Builder(Graph graph, ParallelProtocolProducer scope) {
    this.graph = graph;
    this.scope = scope;
    this.gates = graph.gates();
    this.field = graph.suite().field();
  }

  @Override
  public int myId() {
    return graph.suite().myId();
  }

  @Override
  public int parties() {
    return graph.suite().parties();
  }

  @Override
  public int fieldBits() {
    return field.bitLength();
  }

  @Override
  public BigInteger modulus() {
    return field.modulus();
  }

  private boolean isMine(int party) {
    return party == myId();
  }

  private void checkParty(int party, String what) {
    Encoding.checkParty(parties(), party, what);
  }

  private void checkInputBits(int party, int bits) {
    checkParty(party, "input");
    Encoding.checkBits(field, bits, Encoding.maxLongInputBits(field));
  }

  private static Value v(Secret s) {
    return Lanes.valueOf(s); // a Value, or a handle of a session of a batch built on its own
  }

  private static Value v(SecretVector s) {
    return (Value) s;
  }

  private static void sameLength(SecretVector a, SecretVector b) {
    if (a.length() != b.length()) {
      throw new IllegalArgumentException(
          "vector lengths differ: " + a.length() + " and " + b.length());
    }
  }

  // ---- input ----

  @Override
  public Secret input(int party, long value, int bits) {
    checkInputBits(party, bits);
    long[] packed = isMine(party) ? Encoding.input(field, party, value, bits) : null;
    return gates.input(scope, party, bits, packed, 1);
  }

  @Override
  public Secret input(int party, BigInteger value, int bits) {
    checkParty(party, "input");
    Encoding.checkBits(field, bits, field.bitLength() - 1);
    long[] packed = isMine(party) ? Encoding.input(field, party, value, bits) : null;
    return gates.input(scope, party, bits, packed, 1);
  }

  @Override
  public SecretVector input(int party, long[] values, int length, int bits) {
    if (length < 0) {
      throw new IllegalArgumentException("input length (" + length + ") must be >= 0");
    }
    long[] packed = null;
    if (isMine(party)) {
      Encoding.checkSupplied(party, values, length);
      checkInputBits(party, bits);
      packed = Encoding.inputs(field, party, values, bits);
    }
    checkInputBits(party, bits);
    return length == 0 ? gates.empty() : gates.input(scope, party, bits, packed, length);
  }

  // ---- constants ----

  @Override
  public Secret known(long value) {
    return gates.constant(Encoding.element(field, value), 1);
  }

  @Override
  public Secret known(BigInteger value) {
    return gates.constant(Encoding.element(field, value), 1);
  }

  @Override
  public SecretVector clientInputs(ClientInputs inputs, int column) {
    if (!(inputs instanceof ImportedColumns imported)) {
      throw new IllegalArgumentException(
          "client inputs must come from an input server (got "
              + (inputs == null ? "null" : inputs.getClass().getName())
              + ")");
    }
    if (column < 0 || column >= inputs.columns()) {
      throw new IllegalArgumentException(
          "column " + column + " is not in [0, " + inputs.columns() + ")");
    }
    return gates.imported(imported.column(column));
  }

  @Override
  public SecretVector known(long[] values) {
    return gates.constant(Encoding.elements(field, values), values.length);
  }

  @Override
  public SecretVector known(BigInteger[] values) {
    return gates.constant(Encoding.elements(field, values), values.length);
  }

  // ---- arithmetic on single secrets ----

  @Override
  public Secret add(Secret a, Secret b) {
    return gates.add(scope, 1, v(a), v(b));
  }

  @Override
  public Secret add(Secret a, long constant) {
    return gates.addConstant(scope, 1, v(a), Encoding.element(field, constant));
  }

  @Override
  public Secret sub(Secret a, Secret b) {
    return gates.sub(scope, 1, v(a), v(b));
  }

  @Override
  public Secret sub(long constant, Secret a) {
    return add(negate(a), constant);
  }

  @Override
  public Secret negate(Secret a) {
    return gates.negate(scope, 1, v(a));
  }

  @Override
  public Secret mul(Secret a, Secret b) {
    return gates.multiply(scope, v(a), v(b));
  }

  @Override
  public Secret mul(Secret a, long constant) {
    return gates.scale(scope, 1, v(a), Encoding.element(field, constant));
  }

  @Override
  public Secret mul(Secret a, BigInteger constant) {
    return gates.scale(scope, 1, v(a), Encoding.element(field, constant));
  }

  @Override
  public Secret sum(List<Secret> terms) {
    if (terms.isEmpty()) {
      return known(0);
    }
    return sum(vector(terms));
  }

  @Override
  public Secret innerProduct(List<Secret> a, List<Secret> b) {
    return innerProduct(vector(a), vector(b));
  }

  // ---- arithmetic on vectors ----

  @Override
  public SecretVector add(SecretVector a, SecretVector b) {
    sameLength(a, b);
    return gates.add(scope, a.length(), v(a), v(b));
  }

  @Override
  public SecretVector add(SecretVector a, long constant) {
    return gates.addConstant(scope, a.length(), v(a), Encoding.element(field, constant));
  }

  @Override
  public SecretVector sub(SecretVector a, SecretVector b) {
    sameLength(a, b);
    return gates.sub(scope, a.length(), v(a), v(b));
  }

  @Override
  public SecretVector negate(SecretVector a) {
    return gates.negate(scope, a.length(), v(a));
  }

  @Override
  public SecretVector mul(SecretVector a, SecretVector b) {
    sameLength(a, b);
    return a.length() == 0 ? gates.empty() : gates.multiply(scope, v(a), v(b));
  }

  @Override
  public SecretVector mul(SecretVector a, Secret s) {
    return mul(a, (SecretVector) gates.broadcast(scope, a.length(), v(s)));
  }

  @Override
  public SecretVector mul(SecretVector a, long constant) {
    return gates.scale(scope, a.length(), v(a), Encoding.element(field, constant));
  }

  @Override
  public SecretVector mul(SecretVector a, BigInteger constant) {
    return gates.scale(scope, a.length(), v(a), Encoding.element(field, constant));
  }

  @Override
  public SecretVector add(SecretVector a, long[] constants) {
    long[] packed = Encoding.publicVector(field, constants, a.length());
    return gates.addConstants(scope, a.length(), v(a), packed);
  }

  @Override
  public SecretVector mul(SecretVector a, long[] constants) {
    long[] packed = Encoding.publicVector(field, constants, a.length());
    return gates.scaleEach(scope, a.length(), v(a), packed);
  }

  @Override
  public Secret sum(SecretVector a) {
    return gates.sum(scope, v(a));
  }

  @Override
  public Secret innerProduct(SecretVector a, SecretVector b) {
    return sum(mul(a, b));
  }

  @Override
  public SecretVector linear(
      int n, List<SecretVector> vectors, int[] rows, List<long[]> coefficients, long[] constants) {
    LinearTerms.checkShape(n, vectors.size(), rows, coefficients, constants);
    if (vectors.isEmpty()) {
      return known(constants == null ? new long[n] : constants);
    }
    LinearTerms terms = new LinearTerms(n, vectors.size());
    for (int t = 0; t < vectors.size(); t++) {
      terms.add(v(vectors.get(t)), rows[t], coefficients.get(t));
    }
    long[] packed = constants == null ? null : Encoding.publicVector(field, constants, n);
    return gates.linear(scope, n, terms.form(packed), terms.inputs());
  }

  @Override
  public SecretVector sumRows(SecretVector rows, int n, BigInteger[] scalars) {
    if (n < 0 || (long) scalars.length * n != rows.length()) {
      throw new IllegalArgumentException(
          scalars.length
              + " scalars for rows of "
              + n
              + " elements do not match a vector of length "
              + rows.length());
    }
    if (scalars.length == 0) {
      return known(new long[n]);
    }
    return gates.sumRows(scope, n, v(rows), Encoding.elements(field, scalars));
  }

  // ---- reshaping ----

  @Override
  public SecretVector vector(List<Secret> elements) {
    Value[] in = new Value[elements.size()];
    for (int i = 0; i < in.length; i++) {
      in[i] = v(elements.get(i));
    }
    return in.length == 0 ? gates.empty() : gates.concat(scope, in.length, in);
  }

  @Override
  public Secret get(SecretVector v, int index) {
    if (index < 0 || index >= v.length()) {
      throw new IndexOutOfBoundsException(
          "index " + index + " is outside a vector of length " + v.length());
    }
    return gates.slice(scope, 1, v(v), index);
  }

  @Override
  public SecretVector slice(SecretVector v, int from, int to) {
    if (from < 0 || to > v.length() || from > to) {
      throw new IndexOutOfBoundsException(
          "slice [" + from + ", " + to + ") is outside a vector of length " + v.length());
    }
    return gates.slice(scope, to - from, v(v), from);
  }

  @Override
  public SecretVector concat(SecretVector a, SecretVector b) {
    return gates.concat(scope, a.length() + b.length(), v(a), v(b));
  }

  // ---- opening ----

  @Override
  public Deferred<Long> open(Secret a) {
    return gates.openLong(scope, v(a), -1);
  }

  @Override
  public Deferred<BigInteger> openBig(Secret a) {
    return gates.openBig(scope, v(a));
  }

  @Override
  public Deferred<long[]> open(SecretVector a) {
    return gates.openLongs(scope, v(a), -1);
  }

  @Override
  public Deferred<BigInteger[]> openBig(SecretVector a) {
    return gates.openBigs(scope, v(a));
  }

  @Override
  public Deferred<long[]> openLowBits(SecretVector a, int bits) {
    if (bits < 1) {
      throw new IllegalArgumentException("bits (" + bits + ") must be >= 1");
    }
    return gates.openLowBits(scope, v(a), bits);
  }

  @Override
  public Deferred<Long> openTo(int party, Secret a) {
    checkParty(party, "openTo");
    return gates.openLong(scope, v(a), party);
  }

  @Override
  public Deferred<long[]> openTo(int party, SecretVector a) {
    checkParty(party, "openTo");
    return gates.openLongs(scope, v(a), party);
  }

  // ---- randomness ----

  @Override
  public Secret random() {
    return gates.random(scope, false, 1);
  }

  @Override
  public SecretVector random(int length) {
    return randomVector(length, false);
  }

  @Override
  public Secret randomBit() {
    return gates.random(scope, true, 1);
  }

  @Override
  public SecretVector randomBits(int length) {
    return randomVector(length, true);
  }

  private SecretVector randomVector(int length, boolean bits) {
    checkLength(length);
    return length == 0 ? gates.empty() : gates.random(scope, bits, length);
  }

  @Override
  public SecretVector randomMasks(int length, int bits) {
    checkLength(length);
    Encoding.checkBits(field, bits, field.bitLength() - 2);
    return length == 0 ? gates.empty() : gates.randomMasks(scope, bits, length);
  }

  private static void checkLength(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("length (" + length + ") must be >= 0");
    }
  }

  // ---- secrets computed by later steps ----

  @Override
  public Secret secretOf(Step<? extends Secret> step) {
    return (Secret) Steps.placeholder(gates, step, 1);
  }

  @Override
  public SecretVector vectorOf(Step<? extends SecretVector> step, int length) {
    return (SecretVector) Steps.placeholder(gates, step, length);
  }

  // ---- scopes ----

  @Override
  public <T> Step<T> seq(Computation<T> step) {
    LazyProtocolProducer<Object, T> producer =
        new LazyProtocolProducer<>(graph, scope, null, (b, ignored) -> step.build(b));
    producer.attach();
    return producer;
  }

  @Override
  public <T> Step<T> par(Computation<T> branch) {
    return seq(branch);
  }

  @Override
  public <T> Deferred<List<T>> par(List<? extends Computation<T>> branches) {
    List<Deferred<T>> results = new ArrayList<>(branches.size());
    for (Computation<T> branch : branches) {
      results.add(par(branch));
    }
    return Steps.all(results);
  }

  @Override
  public <T> Step<T> loop(T initial, Predicate<? super T> condition, StepFunction<T, T> body) {
    SequentialProtocolProducer<T> loop =
        new SequentialProtocolProducer<>(graph, scope, initial, condition, body);
    loop.attach();
    return loop;
  }
}
