/**
 * TLS material for both transports: {@link dev.cohort.transport.tls.Certificates} generates and
 * loads a deployment's CA and per-party certificates (the party id is the certificate's CN, {@code
 * P<i>}); {@link dev.cohort.transport.tls.TlsIdentity} builds the mutually authenticated TLS 1.3
 * contexts, a JDK {@code SSLContext} for the socket transport (layered over a socket by {@link
 * dev.cohort.transport.tls.JdkTls}) and Netty {@code SslContext}s (JDK or BoringSSL, by {@link
 * dev.cohort.transport.tls.TlsProvider}) for the Netty transport. Only the CA is trusted; every
 * peer must present a certificate it signed.
 */
package dev.cohort.transport.tls;
