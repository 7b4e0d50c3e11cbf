package dev.cohort.suite;

import dev.cohort.field.Field;

/**
 * One party's instance of a protocol suite: how secrets are shared, combined and opened. The engine
 * hands it whole batches of gates of one kind; it never sees the producer tree.
 *
 * <p>Local operations return new {@link Shares} at once. Interactive operations return a {@link
 * RoundProtocol} that the engine drives round by round together with every other protocol of the
 * same rounds. Packed field elements are in {@link Field} layout.
 */
public interface Suite {

  Field field();

  /** This party's index (the same as {@code Numeric.myId()} and {@code Channel.myId()}). */
  int myId();

  int parties();

  /** Per-run set-up (key agreement and the like) or null when the suite needs none. */
  RoundProtocol setup();

  // ---- local operations: no communication ----

  /** Shares of public constants ({@code values} holds {@code length} packed elements). */
  Shares constant(long[] values, int length);

  Shares add(Shares a, Shares b);

  Shares sub(Shares a, Shares b);

  /**
   * {@code a[ao + i] + b[bo + i]} for {@code i < n}: elements read in place from larger vectors
   * (the outputs of a batch). Column-wise, MAC shares included, as for every linear secret sharing;
   * whole vectors go to {@link #add(Shares, Shares)}.
   */
  default Shares add(Shares a, int ao, Shares b, int bo, int n) {
    if (ao == 0 && bo == 0 && a.length == n && b.length == n) {
      return add(a, b);
    }
    return columns(a, ao, b, bo, n, false);
  }

  /**
   * {@code a[ao + i] - b[bo + i]} for {@code i < n}; see {@link #add(Shares, int, Shares, int,
   * int)}.
   */
  default Shares sub(Shares a, int ao, Shares b, int bo, int n) {
    if (ao == 0 && bo == 0 && a.length == n && b.length == n) {
      return sub(a, b);
    }
    return columns(a, ao, b, bo, n, true);
  }

  private Shares columns(Shares a, int ao, Shares b, int bo, int n, boolean subtract) {
    Field f = field();
    int room = Math.max(n, 0); // a negative n is reported by the range check
    Shares out = new Shares(room, f.alloc(room), a.mac == null ? null : f.alloc(room));
    if (subtract) {
      subInto(a, ao, b, bo, out, 0, n);
    } else {
      addInto(a, ao, b, bo, out, 0, n);
    }
    return out;
  }

  /**
   * Writes {@code a[ao + i] + b[bo + i]} to {@code out[oo + i]} for {@code i < n}, column-wise, MAC
   * shares included: results of a few elements go into arrays shared with others (the engine packs
   * small local results together instead of allocating arrays for each).
   */
  default void addInto(Shares a, int ao, Shares b, int bo, Shares out, int oo, int n) {
    checkColumns(a, ao, b, bo, out, oo, n);
    Field f = field();
    f.add(a.share, ao, b.share, bo, out.share, oo, n);
    if (a.mac != null) {
      f.add(a.mac, ao, b.mac, bo, out.mac, oo, n);
    }
  }

  /** Writes {@code a[ao + i] - b[bo + i]} to {@code out[oo + i]}; see {@link #addInto}. */
  default void subInto(Shares a, int ao, Shares b, int bo, Shares out, int oo, int n) {
    checkColumns(a, ao, b, bo, out, oo, n);
    Field f = field();
    f.sub(a.share, ao, b.share, bo, out.share, oo, n);
    if (a.mac != null) {
      f.sub(a.mac, ao, b.mac, bo, out.mac, oo, n);
    }
  }

  private static void checkColumns(Shares a, int ao, Shares b, int bo, Shares out, int oo, int n) {
    if (ao < 0
        || bo < 0
        || oo < 0
        || n < 0
        || ao + n > a.length
        || bo + n > b.length
        || oo + n > out.length) {
      throw new IllegalArgumentException(
          "elements ["
              + ao
              + ", "
              + (ao + n)
              + "), ["
              + bo
              + ", "
              + (bo + n)
              + ") and ["
              + oo
              + ", "
              + (oo + n)
              + ") lie outside vectors of "
              + a.length
              + ", "
              + b.length
              + " and "
              + out.length);
    }
    if ((a.mac == null) != (b.mac == null) || (a.mac == null) != (out.mac == null)) {
      throw new IllegalArgumentException("some operands have MAC shares and others have none");
    }
  }

  Shares negate(Shares a);

  /** {@code a[i] + c} for the one public element {@code c[co]}. */
  Shares addConstant(Shares a, long[] c, int co);

  /** {@code a[i] * c} for the one public element {@code c[co]}. */
  Shares scale(Shares a, long[] c, int co);

  /** {@code a[i] + c[i]} for public elements {@code c} (packed, one per element of a). */
  default Shares addConstants(Shares a, long[] c) {
    return add(a, constant(c, a.length));
  }

  /**
   * {@code a[i] * c[i]} for public elements {@code c}. Scaling by public values is column-wise for
   * every linear secret sharing, MAC shares included.
   */
  default Shares scaleEach(Shares a, long[] c) {
    Field f = field();
    long[] s = new long[c.length];
    f.mul(a.share, 0, c, 0, s, 0, a.length);
    long[] m = null;
    if (a.mac != null) {
      m = new long[c.length];
      f.mul(a.mac, 0, c, 0, m, 0, a.length);
    }
    return new Shares(a.length, s, m);
  }

  /**
   * {@code Σ_t c_t[i]·x_t[o_t + i]} for {@code i < n}, where {@code x_t = terms[t]} is read from
   * element {@code o_t = offsets[t]} on and {@code c_t = coefficients[t]} holds small public
   * integers ({@code |c| <} {@link Field#LINEAR_COEFFICIENT_BOUND}) or is null for all ones: a
   * linear form in one pass ({@link Field#linear}). Column-wise for every linear secret sharing,
   * MAC shares included.
   */
  default Shares linear(Shares[] terms, int[] offsets, long[][] coefficients, int n) {
    Field f = field();
    long[][] columns = new long[terms.length][];
    for (int t = 0; t < terms.length; t++) {
      columns[t] = terms[t].share;
    }
    long[] s = f.alloc(n);
    f.linear(columns, offsets, coefficients, s, 0, n);
    long[] m = null;
    if (terms.length > 0 && terms[0].mac != null) {
      for (int t = 0; t < terms.length; t++) {
        columns[t] = terms[t].mac;
      }
      m = f.alloc(n);
      f.linear(columns, offsets, coefficients, m, 0, n);
    }
    return new Shares(n, s, m);
  }

  /**
   * {@code Σ_i c_i · a[i·n + j]} for {@code j < n}: the rows of {@code a} scaled by the public
   * elements {@code c_i} (packed in {@code scalars}, one per row) and summed.
   */
  default Shares sumRows(Shares a, int n, long[] scalars) {
    Field f = field();
    int rows = scalars.length / f.words();
    long[] s = f.alloc(n);
    f.sumRows(a.share, 0, rows, n, scalars, s, 0);
    long[] m = null;
    if (a.mac != null) {
      m = f.alloc(n);
      f.sumRows(a.mac, 0, rows, n, scalars, m, 0);
    }
    return new Shares(n, s, m);
  }

  /** The sum of all elements of {@code a}, as a vector of length one. */
  Shares sum(Shares a);

  // ---- interactive operations ----

  /**
   * Secret-shares {@code length} values of {@code owner}. {@code values} holds the packed field
   * elements at the owner and is null elsewhere.
   */
  RoundProtocol input(int owner, long[] values, int length);

  /**
   * As {@link #input(int, long[], int)}, for values that the owner declared to be {@code bits}-bit
   * signed integers, in [−2^(bits−1), 2^(bits−1)). The owner's own process checks that range before
   * this is called; a suite secure against active corruption must not trust that check: the shares
   * it returns must be of values in that range whatever the owner sends (SPDZ: each value is
   * composed of {@code bits} authenticated bits, so the range holds by construction). The default,
   * right for suites whose parties are trusted to run the protocol (semi-honest BGW, the plaintext
   * suite), ignores {@code bits}.
   *
   * @param bits the declared signed bit length, in [1, field bits − 1]
   */
  default RoundProtocol input(int owner, long[] values, int length, int bits) {
    return input(owner, values, length);
  }

  RoundProtocol multiply(Shares a, Shares b);

  /** Opens {@code a} to every party ({@code receiver < 0}) or to {@code receiver} only. */
  RoundProtocol open(Shares a, int receiver);

  /** Shares of {@code length} uniformly random elements that no party knows. */
  RoundProtocol random(int length);

  /** Shares of {@code length} uniformly random bits that no party knows. */
  RoundProtocol randomBits(int length);

  /**
   * Shares of {@code length} random integers for statistical masking: each r = u + w where u is
   * uniform in [0, 2^bits) and independent of w and of the view of any set of parties the suite
   * tolerates, and 0 ≤ r < parties · 2^bits. Adding r to a value v in [0, 2^b) hides v to
   * statistical distance 2^(b − bits). {@code bits} must be below the field's bit length minus one.
   *
   * <p>The default composes {@code bits} random bits per integer (w = 0, r exactly uniform); a
   * suite with a cheaper source of bounded randomness overrides it (BGW: the sum of integers dealt
   * by t + 1 parties).
   */
  default RoundProtocol randomMasks(int length, int bits) {
    return new ComposedMasks(this, length, bits);
  }

  /**
   * A check the suite must run before results leave the engine ({@code end} true), or at a round
   * boundary because enough unchecked work has piled up or a gate waits for it ({@code end} false);
   * null when nothing needs checking. SPDZ's MAC check and broadcast comparison are such checks.
   *
   * <p>The engine asks with {@code end} false at every round boundary, after that round's new gates
   * were started and before any protocol sends: a gate may wait for a check it asked for when it
   * was started (SPDZ's openings wait for the MAC check of every earlier opening).
   */
  default RoundProtocol check(boolean end) {
    return null;
  }

  /**
   * How long, in all, this party has waited for preprocessed material that was not ready yet (SPDZ
   * fed by an offline phase running in the background); zero for a suite whose material is always
   * at hand. The engine reports the part of it that fell into a run ({@link
   * dev.cohort.engine.RunMetrics#materialWaitNanos}).
   */
  default long materialWaitNanos() {
    return 0;
  }
}
