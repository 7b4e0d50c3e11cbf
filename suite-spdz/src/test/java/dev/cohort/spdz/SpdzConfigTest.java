package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configuration factories: what each reads its preprocessing from and how it is described. */
class SpdzConfigTest {

  private static final Field M61 = Fields.MERSENNE_61;
  private static final DealerFiles.Amounts SMALL = new DealerFiles.Amounts(10, 2, 2, 4, 4);

  @Test
  void dealerFiles_description_namesTheDirectory(@TempDir Path directory) {
    SpdzConfig config = SpdzConfig.dealerFiles(M61, directory);
    assertEquals("dealer files in " + directory, config.description());
    assertEquals(M61, config.field());
    assertEquals(SpdzConfig.DEFAULT_CHECK_EVERY, config.checkEvery());
    assertEquals("spdz(m61, dealer files in " + directory + ")", SpdzSuite.factory(config).name());
  }

  @Test
  void dealerFiles_open_readsEachPartysFileInTheDirectory(@TempDir Path directory) {
    DealerFiles.writeInsecure(directory, M61, 3, SMALL, 7);
    SpdzConfig config = SpdzConfig.dealerFiles(M61, directory);
    for (int party = 0; party < 3; party++) {
      SpdzPreprocessing read = config.preprocessing().open(M61, party, 3);
      assertInstanceOf(FilePreprocessing.class, read);
      SpdzPreprocessing direct =
          FilePreprocessing.open(DealerFiles.file(directory, party), M61, party, 3);
      assertArrayEquals(direct.macKeyShare(), read.macKeyShare(), "P" + party);
    }
  }

  @Test
  void dealerFiles_emptyDirectory_failsNamingTheMissingFile(@TempDir Path directory) {
    SpdzConfig config = SpdzConfig.dealerFiles(M61, directory);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> config.preprocessing().open(M61, 1, 3));
    assertEquals(
        "SPDZ preprocessing file " + directory.resolve("party-1.spdz") + " does not exist",
        e.getMessage());
  }

  @Test
  void of_keepsSourceAndDescription_withTheDefaultCheckEvery() {
    PreprocessingSource source = InsecureDealer.source(3);
    SpdzConfig config = SpdzConfig.of(M61, source, "a test source");
    assertSame(source, config.preprocessing());
    assertEquals("a test source", config.description());
    assertEquals(SpdzConfig.DEFAULT_CHECK_EVERY, config.checkEvery());
    assertEquals("spdz(m61, a test source)", SpdzSuite.factory(config).name());
  }

  @Test
  void insecureDealer_describesItselfAsInsecure() {
    assertEquals("insecure dealer", SpdzConfig.insecureDealer(M61, 1).description());
  }
}
