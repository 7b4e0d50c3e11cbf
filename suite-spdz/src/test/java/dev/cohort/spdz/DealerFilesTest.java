package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.RandomCircuit;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Preprocessing dealt to files and read back: runs match plaintext and pass their MAC checks. */
class DealerFilesTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  // Every k-bit input takes k input bits of its owner (and no mask, no triple).
  private static final DealerFiles.Amounts PLENTY =
      new DealerFiles.Amounts(1000, 50, 50, 100, 2000);

  private static SuiteFactory fromFiles(Field field, Path directory) {
    return SpdzSuite.factory(SpdzConfig.dealerFiles(field, directory));
  }

  @Test
  void files_randomCircuit_matchesPlaintext(@TempDir Path directory) {
    for (Field field : List.of(Fields.MERSENNE_61, Fields.MERSENNE_127)) {
      int n = 3;
      Path dir = directory.resolve(field.name());
      List<Path> files = DealerFiles.writeInsecure(dir, field, n, PLENTY, 5);
      assertEquals(
          List.of(
              dir.resolve("party-0.spdz"),
              dir.resolve("party-1.spdz"),
              dir.resolve("party-2.spdz")),
          files);
      RandomCircuit circuit = RandomCircuit.generate(5, n, new RandomCircuit.Shape(20, 4, 20, 3));
      BigInteger[] expected = circuit.expected(field.modulus());
      List<Result<BigInteger[]>> results =
          new LocalParties(
                  n, fromFiles(field, dir), EngineConfig.defaults().withInsecureSeed(5), TIMEOUT)
              .run(circuit.computation());
      for (Result<BigInteger[]> r : results) {
        BigInteger[] actual = r.value().clone();
        for (int i = 0; i < actual.length; i++) {
          actual[i] = actual[i].mod(field.modulus());
        }
        assertArrayEquals(expected, actual, field.name());
      }
    }
  }

  @Test
  void writeParty_eachPartyItsOwnFile_runMatchesPlaintext(@TempDir Path directory) {
    // What the offline phase does: every party writes only its own file, with an id agreed on.
    Field field = Fields.MERSENNE_127;
    int n = 3;
    byte[] key = new byte[16];
    key[3] = 9;
    long[] id = {0x1234L, -7L};
    for (int p = 0; p < n; p++) {
      InsecureDealer material = new InsecureDealer(field, p, n, key, Long.MAX_VALUE);
      Path file =
          DealerFiles.writeParty(directory, field, p, n, PLENTY, material, id, Long.MAX_VALUE);
      assertEquals(directory.resolve("party-" + p + ".spdz"), file);
    }
    RandomCircuit circuit = RandomCircuit.generate(8, n, new RandomCircuit.Shape(20, 4, 20, 3));
    BigInteger[] expected = circuit.expected(field.modulus());
    List<Result<BigInteger[]>> results =
        new LocalParties(
                n,
                fromFiles(field, directory),
                EngineConfig.defaults().withInsecureSeed(8),
                TIMEOUT)
            .run(circuit.computation());
    for (Result<BigInteger[]> r : results) {
      BigInteger[] actual = r.value().clone();
      for (int i = 0; i < actual.length; i++) {
        actual[i] = actual[i].mod(field.modulus());
      }
      assertArrayEquals(expected, actual);
    }
  }

  @Test
  void writeParty_tooLargeForMaxBytes_writesNothing(@TempDir Path directory) {
    InsecureDealer material =
        new InsecureDealer(Fields.MERSENNE_61, 0, 2, new byte[16], Long.MAX_VALUE);
    assertThrows(
        DealingSpace.InsufficientSpaceException.class,
        () ->
            DealerFiles.writeParty(
                directory, Fields.MERSENNE_61, 0, 2, PLENTY, material, new long[2], 1000));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            DealerFiles.writeParty(
                directory,
                Fields.MERSENNE_61,
                0,
                2,
                PLENTY,
                material,
                new long[3],
                Long.MAX_VALUE));
    assertEquals(0, directory.toFile().list().length);
  }

  @Test
  void files_secretKey_randomBitsAndOpenTo_work(@TempDir Path directory) {
    int n = 2;
    DealerFiles.write(directory, Fields.MERSENNE_127, n, PLENTY);
    List<Result<List<Long>>> results =
        new LocalParties(
                n,
                fromFiles(Fields.MERSENNE_127, directory),
                EngineConfig.defaults().withInsecureSeed(6),
                TIMEOUT)
            .run(
                b -> {
                  SecretVector bits = b.randomBits(20);
                  Secret x = b.input(0, 6, 20);
                  Deferred<Long> ones = b.open(b.sum(bits));
                  Deferred<Long> square = b.openTo(1, b.mul(x, x));
                  return () -> List.of(ones.get(), b.myId() == 1 ? square.get() : -1L);
                });
    for (Result<List<Long>> r : results) {
      long ones = r.value().get(0);
      assertTrue(ones >= 0 && ones <= 20, "sum of 20 bits: " + ones);
    }
    assertEquals(36L, results.get(1).value().get(1));
  }

  /**
   * The input bits in the files, reconstructed from every party's file with BigInteger arithmetic:
   * bits (0 or 1, both occurring), whose MACs hold under α = Σ α_i, and whose values the owner's
   * file holds (and only the owner's); a reader opened later (as after a restart) goes on where the
   * earlier one stopped.
   */
  @Test
  void files_inputBits_authenticatedBitsKnownToTheirOwner(@TempDir Path directory) {
    Field f = Fields.MERSENNE_127;
    int n = 3;
    int count = 64;
    DealerFiles.writeInsecure(directory, f, n, new DealerFiles.Amounts(0, 0, 0, 0, 2 * count), 9);
    for (int owner = 0; owner < n; owner++) {
      for (int half = 0; half < 2; half++) { // each half from readers opened afresh
        BigInteger alpha = BigInteger.ZERO;
        BigInteger[] value = new BigInteger[count];
        BigInteger[] mac = new BigInteger[count];
        java.util.Arrays.fill(value, BigInteger.ZERO);
        java.util.Arrays.fill(mac, BigInteger.ZERO);
        long[] ownerValues = null;
        for (int p = 0; p < n; p++) {
          FilePreprocessing reader =
              FilePreprocessing.open(DealerFiles.file(directory, p), f, p, n);
          alpha = alpha.add(f.toBigInteger(reader.macKeyShare(), 0));
          SpdzPreprocessing.InputMasks bits = reader.inputBits(owner, count);
          assertEquals(p == owner, bits.values() != null, "values at the owner only");
          if (p == owner) {
            ownerValues = bits.values();
          }
          for (int i = 0; i < count; i++) {
            value[i] = value[i].add(f.toBigInteger(bits.shares().share, i));
            mac[i] = mac[i].add(f.toBigInteger(bits.shares().mac, i));
          }
        }
        int ones = 0;
        for (int i = 0; i < count; i++) {
          BigInteger v = value[i].mod(f.modulus());
          assertTrue(v.equals(BigInteger.ZERO) || v.equals(BigInteger.ONE), "bit " + i + ": " + v);
          assertEquals(alpha.multiply(v).mod(f.modulus()), mac[i].mod(f.modulus()), "MAC " + i);
          assertEquals(v, f.toBigInteger(ownerValues, i), "the owner's value " + i);
          ones += v.intValue();
        }
        assertTrue(ones > 0 && ones < count, "both values occur: " + ones + " ones");
      }
      // The two halves used all 2·count: a third reader finds none left, not the first half again.
      int o = owner;
      FilePreprocessing later = FilePreprocessing.open(DealerFiles.file(directory, 1), f, 1, n);
      assertThrows(IllegalStateException.class, () -> later.inputBits(o, 1));
    }
  }

  @Test
  void files_runOut_failsNamingFileAndKind(@TempDir Path directory) {
    DealerFiles.writeInsecure(
        directory, Fields.MERSENNE_61, 2, new DealerFiles.Amounts(4, 0, 0, 0, 200), 7);
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                new LocalParties(
                        2,
                        fromFiles(Fields.MERSENNE_61, directory),
                        EngineConfig.defaults().withInsecureSeed(7),
                        TIMEOUT)
                    .run(
                        b -> {
                          // 10 values of 20 bits: the 200 input bits suffice; the product
                          // takes 10 triples, more than the 4
                          SecretVector v = b.input(0, b.myId() == 0 ? new long[10] : null, 10, 20);
                          return b.open(b.mul(v, v));
                        }));
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertEquals(
        "SPDZ preprocessing file "
            + DealerFiles.file(directory, e.party().index())
            + " ran out of triples: 10 needed, 4 of 4 left",
        e.getCause().getMessage());
  }

  @Test
  void files_wrongPartyOrField_failClearly(@TempDir Path directory) {
    DealerFiles.writeInsecure(directory, Fields.MERSENNE_61, 3, PLENTY, 8);
    Path file = DealerFiles.file(directory, 0);
    IllegalArgumentException party =
        assertThrows(
            IllegalArgumentException.class,
            () -> FilePreprocessing.open(file, Fields.MERSENNE_61, 1, 3));
    assertEquals(
        file + " holds the preprocessing of P0 of 3 parties, not of P1 of 3", party.getMessage());
    IllegalArgumentException field =
        assertThrows(
            IllegalArgumentException.class,
            () -> FilePreprocessing.open(file, Fields.MERSENNE_127, 0, 3));
    assertEquals(
        file + " was dealt over a 61-bit field, not over m127 (127 bits)", field.getMessage());
  }
}
