package dev.cohort.transport.tls;

import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.internal.tcnative.SSL;
import javax.net.ssl.SSLEngine;

/**
 * No TLS session resumption on the client link: a client connects once per device session and
 * proves its certificate every time, so a server issues no session tickets and a client keeps no
 * sessions. Invariant: a client link engine BoringSSL runs never sends a NewSessionTicket, and a
 * client link client context caches no session.
 *
 * <p>Why: Netty turns TLS 1.3 tickets on per engine (BoringSSL then seals two tickets after every
 * handshake, each with the client's certificate inside, and the client decrypts and stores them),
 * which cost 12% of a server's CPU per handshake and a client's more, for resumptions that never
 * happen. The JDK's TLS is left as it is: it sends stateless tickets that a client link client
 * never presents.
 */
public final class SessionTickets {

  private SessionTickets() {}

  /**
   * Makes {@code engine}, a client link server's, issue no session ticket (before its handshake).
   */
  public static void refuse(SSLEngine engine) {
    if (engine instanceof ReferenceCountedOpenSslEngine openSsl) {
      SSL.setOptions(openSsl.sslPointer(), SSL.SSL_OP_NO_TICKET);
    }
  }

  /** Turns off the client session cache of {@code context}, a client link client's. */
  static SslContext withoutClientCache(SslContext context) {
    if (context.sessionContext() instanceof OpenSslSessionContext sessions) {
      sessions.setSessionCacheEnabled(false);
    }
    return context;
  }
}
