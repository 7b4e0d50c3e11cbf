package dev.cohort.producer;

import dev.cohort.api.Deferred;
import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import java.math.BigInteger;

/**
 * The deferred plain result of an open gate, decoded to the signed integers the application
 * declared: {@code Long}, {@code BigInteger}, {@code long[]} or {@code BigInteger[]}; or, for
 * {@link Form#LOW_BITS}, the low bits of each representative in [0, p), as words.
 *
 * <p>The opened elements stay where the open protocol left them, in the array of the whole batch:
 * the gates of a batch share it (read only), so opening 1000 scalars costs no array per scalar.
 */
final class Opened<T> implements Deferred<T> {

  enum Form {
    LONG,
    BIG,
    LONGS,
    BIGS,
    LOW_BITS
  }

  private final Field field;
  private final Form form;
  private final int bits; // for LOW_BITS
  private final int receiver;
  private final int self;
  private final int length; // elements
  private long[] packed; // the batch's opened elements, this value's from element offset
  private int offset = -1; // -1 until set
  private T decoded;

  Opened(Field field, Form form, int bits, int receiver, int self, int length) {
    this.field = field;
    this.form = form;
    this.bits = bits;
    this.receiver = receiver;
    this.self = self;
    this.length = length;
  }

  /**
   * Sets the value to the {@code length} packed elements of {@code batch} from element {@code
   * offset}; {@code batch} null: this party is not a receiver.
   */
  void set(long[] batch, int offset) {
    packed = batch;
    this.offset = offset;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T get() {
    if (offset < 0) {
      throw new IllegalStateException(
          "opened value is not available yet: read it in a later step (seq) or after the run");
    }
    if (packed == null) {
      throw new IllegalStateException(
          "value was opened to " + PartyId.of(receiver) + " only, not to " + PartyId.of(self));
    }
    if (decoded == null) {
      decoded = (T) decode();
    }
    return decoded;
  }

  private Object decode() {
    int words = field.words();
    int n = length;
    switch (form) {
      case LONG:
        return field.decodeLong(packed, offset);
      case BIG:
        return field.decodeSigned(packed, offset);
      case LONGS:
        long[] longs = new long[n];
        for (int i = 0; i < n; i++) {
          longs[i] = field.decodeLong(packed, offset + i);
        }
        return longs;
      case BIGS:
        BigInteger[] bigs = new BigInteger[n];
        for (int i = 0; i < n; i++) {
          bigs[i] = field.decodeSigned(packed, offset + i);
        }
        return bigs;
      case LOW_BITS:
        return lowBits(n, words);
      default:
        throw new AssertionError(form);
    }
  }

  /** The low {@code bits} bits of each element: field words are little-endian and canonical. */
  private long[] lowBits(int n, int words) {
    int per = (bits + 63) / 64;
    long top = bits % 64 == 0 ? -1L : (1L << (bits % 64)) - 1;
    long[] low = new long[n * per];
    int from = offset * words;
    for (int i = 0; i < n; i++) {
      for (int w = 0; w < per && w < words; w++) {
        low[i * per + w] = packed[from + i * words + w];
      }
      low[i * per + per - 1] &= top;
    }
    return low;
  }
}
