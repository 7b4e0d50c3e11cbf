package dev.cohort.transport;

import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsIdentity;
import dev.cohort.transport.tls.TlsProvider;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Fresh keys for a test class (of either transport): a CA and party certificates in a test's
 * temporary directory.
 */
public final class TestKeys {

  public final Path directory;

  private TestKeys(Path directory) {
    this.directory = directory;
  }

  public static TestKeys generate(Path directory, int parties) {
    Certificates.generate(directory, parties);
    return new TestKeys(directory);
  }

  public TlsIdentity identity(int party) {
    return TlsIdentity.load(directory, party);
  }

  /** TLS options with timeouts short enough for tests. */
  public TransportOptions options(int party) {
    return options(party, TlsProvider.AUTO);
  }

  /** {@link #options(int)} with the given TLS implementation. */
  public TransportOptions options(int party, TlsProvider provider) {
    return TransportOptions.tls(identity(party).withProvider(provider))
        .withConnectTimeout(Duration.ofSeconds(20))
        .withReceiveTimeout(Duration.ofSeconds(20));
  }
}
