package dev.cohort.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.NetworkException;
import dev.cohort.netty.NettyNetwork;
import dev.cohort.socket.SocketNetwork;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.JdkTls;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An input client's certificate is of the deployment's CA, but it never joins the mesh: neither
 * transport admits a connection that proves one, whatever id its hello claims, and no party can be
 * bound with one.
 */
class ClientCertificateOnMeshTest {

  private static final InetSocketAddress ANY = new InetSocketAddress("127.0.0.1", 0);
  private static final InetSocketAddress NOBODY = new InetSocketAddress("127.0.0.1", 9);

  @TempDir Path keys;

  enum Mesh {
    NETTY,
    SOCKET;

    TransportNetwork bind(int self, TransportOptions options) {
      return this == NETTY
          ? NettyNetwork.bind(self, 2, ANY, options)
          : SocketNetwork.bind(self, 2, ANY, options);
    }
  }

  @ParameterizedTest
  @EnumSource(Mesh.class)
  void connect_clientCertificateClaimingP0_isRefusedNamingTheClientCertificate(Mesh mesh)
      throws Exception {
    TestKeys honest = TestKeys.generate(keys, 2);
    Certificates.generateClients(keys, 1);
    TlsIdentity client = TlsIdentity.loadClient(keys, 0);
    try (TransportNetwork party1 =
        mesh.bind(1, honest.options(1).withConnectTimeout(Duration.ofMillis(1500)))) {
      InetSocketAddress address = party1.localAddress();
      try (Socket raw = new Socket(address.getAddress(), address.getPort());
          SSLSocket tls = JdkTls.handshake(client.jdkContext(), raw, address, true)) {
        tls.setSoTimeout(10_000);
        tls.getOutputStream().write(hello(0));
        tls.getOutputStream().flush();
        assertEquals(-1, readAll(tls.getInputStream()), "P1 said nothing, not even its hello");
      }
      NetworkException e =
          assertThrows(NetworkException.class, () -> party1.connect(List.of(NOBODY, address)));
      assertTrue(
          e.getMessage()
              .endsWith(
                  ": presented an input client's certificate (CN=cohort-client-0): clients"
                      + " connect to a party's client link, never to the mesh)"),
          e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(Mesh.class)
  void bind_clientCertificate_isRejected(Mesh mesh) {
    TestKeys.generate(keys, 2);
    Certificates.generateClients(keys, 1);
    TransportOptions options = TransportOptions.tls(TlsIdentity.loadClient(keys, 0));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> mesh.bind(0, options));
    assertEquals(
        "the TLS certificate is for cohort-client-0, not for cohort-party-0", e.getMessage());
  }

  /** A hello claiming {@code party}, as {@link WireFormat} lays it out. */
  private static byte[] hello(int party) {
    return ByteBuffer.allocate(WireFormat.LENGTH_BYTES + WireFormat.HELLO_LENGTH)
        .putInt(WireFormat.HELLO_LENGTH)
        .putInt(WireFormat.HELLO)
        .putInt(party)
        .putLong(WireFormat.MAGIC)
        .array();
  }

  /** Reads until the peer closes: -1 when nothing came, else the first byte. */
  private static int readAll(InputStream in) throws IOException {
    try {
      return in.read();
    } catch (IOException e) { // the peer's close as a TLS alert or a reset: nothing was read
      return -1;
    }
  }
}
