package dev.cohort.clients;

import dev.cohort.api.AbortException;
import dev.cohort.field.Field;

/**
 * An SPDZ submission [DDN+16], the client's end, with the layout both ends share: one Beaver triple
 * per bit, opened to the client, and every bit masked twice.
 *
 * <p>For bit {@code s_j} of a submission ({@code m} bits in all, the bits of {@code value +
 * 2^(b−1)} as over BGW) the servers open the triple {@code (a_j, b_j, c_j)} to the client: each
 * sends its value shares, never its MAC shares. The client adds them up, checks {@code c_j = a_j ·
 * b_j} for every j and sends every server the same {@code d_j = s_j − a_j} and {@code e_j = s_j −
 * b_j}. The servers compare digests of what they received, and compute locally
 *
 * <pre>
 *   ⟨x_j⟩ = ⟨a_j⟩ + d_j      ⟨y_j⟩ = ⟨b_j⟩ + e_j      ⟨z_j⟩ = ⟨c_j⟩ + d_j·⟨b_j⟩ + e_j·⟨a_j⟩ + d_j·e_j
 * </pre>
 *
 * so that {@code z_j = x_j · y_j} exactly, whatever the client sent: the triple is the dealer's.
 * With coefficients {@code ρ, ρ'} drawn jointly once the submissions are fixed, they open (after a
 * MAC check) {@code t = Σ_j ρ_j (x_j − y_j) + ρ'_j (z_j − x_j)}: it is 0 for an honest client, so
 * opening it reveals nothing, and for any other client it is 0 with probability at most 2/p, since
 * {@code x_j = y_j} and {@code z_j = x_j} make {@code x_j² = x_j}: every {@code x_j} is a bit, so
 * every value {@code Σ_j 2^j x_j − 2^(b−1)} is in its declared range ({@link SpdzValidation}).
 *
 * <p>Why each bit is masked twice with the two factors of one triple: the bit check needs the
 * square of every bit, and the triple then <em>is</em> that square, a local operation. Masking with
 * {@code a} and {@code b} as two separate masks and squaring in the engine would cost one and a
 * half triples per bit and a Beaver round that sends two elements per bit to every peer; this costs
 * one triple per bit, no round and no traffic between the servers, for {@code m} more elements from
 * the client to each server.
 *
 * <p>Privacy: {@code a_j} and {@code b_j} are uniform, independent, and known to this client only,
 * so {@code d_j} and {@code e_j} reveal nothing of {@code s_j}. A server that offsets its share of
 * {@code a_j} (or {@code b_j}) sent to the client by δ would shift the client's bit by δ; the check
 * catches it, because the offset of {@code c_j} that passes it, {@code δ·b_j} (or {@code δ·a_j}),
 * needs the other factor, which the server does not know: it passes with probability 1/p. The
 * client then refuses to submit.
 *
 * <p>Layouts (elements of the session's field): what server {@code i} sends a client, {@code 3m}:
 * its shares of {@code a}, then {@code b}, then {@code c}; what a client sends every server, {@link
 * #elements}: {@code d}, then {@code e}.
 */
final class SpdzSubmissions {

  private SpdzSubmissions() {}

  /** Elements per server of a submission of {@code shape}: {@code d} then {@code e}. */
  static int elements(Shape shape) {
    return 2 * shape.elements();
  }

  /** Elements a server sends a client: its shares of a, b and c, one triple per bit. */
  static int maskElements(Shape shape) {
    return 3 * shape.elements();
  }

  /**
   * The masks {@code a ‖ b} ({@code m} elements each) from every server's shares ({@code
   * shares[i]}, {@link #maskElements} elements each, canonical); throws {@link AbortException}
   * naming the first triple that fails {@code c = a·b}.
   */
  static long[] masks(Field f, int m, long[][] shares, long session) {
    long[] sum = f.alloc(3 * m);
    for (long[] s : shares) {
      f.add(sum, 0, s, 0, sum, 0, 3 * m);
    }
    long[] product = f.alloc(m);
    f.mul(sum, 0, sum, m, product, 0, m);
    for (int j = 0; j < m; j++) {
      if (!f.equal(product, j, sum, 2 * m + j)) {
        java.util.Arrays.fill(sum, 0L);
        throw new AbortException(
            "the input masks of session "
                + session
                + " fail the check c = a·b at triple "
                + j
                + " of "
                + m
                + ": some server sent shares of no triple (a cheating or faulty server);"
                + " nothing was submitted");
      }
    }
    long[] ab = new long[2 * m * f.words()];
    System.arraycopy(sum, 0, ab, 0, ab.length);
    java.util.Arrays.fill(sum, 0L);
    return ab;
  }

  /** The bits of {@code values} ({@code value + 2^(b−1)}, b bits each) as field elements. */
  static long[] bits(Field f, Shape shape, long[] values) {
    shape.check(values);
    long[] bits = f.alloc(shape.elements());
    for (int c = 0; c < shape.columns(); c++) {
      int b = shape.bits(c);
      long biased = values[c] + (1L << (b - 1)); // in [0, 2^b)
      for (int j = 0; j < b; j++) {
        f.encode((biased >>> j) & 1L, bits, shape.offset(c) + j);
      }
    }
    return bits;
  }

  /**
   * The submission {@code d ‖ e} for {@code bits} ({@code m} field elements; a client that follows
   * the protocol sends bits) under masks {@code a ‖ b}: the same for every server.
   */
  static long[] mask(Field f, long[] bits, long[] masks) {
    int m = bits.length / f.words();
    long[] out = f.alloc(2 * m);
    f.sub(bits, 0, masks, 0, out, 0, m);
    f.sub(bits, 0, masks, m, out, m, m);
    return out;
  }
}
