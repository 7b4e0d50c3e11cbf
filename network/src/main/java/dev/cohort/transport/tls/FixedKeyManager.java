package dev.cohort.transport.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A key manager that holds exactly one key and its certificate, the party's own. Netty would
 * otherwise put the key into an in-memory PKCS#12 keystore under a throwaway password, which the
 * JDK protects with 10 000 PBKDF2 iterations that guard nothing and cost up to seconds per party.
 */
final class FixedKeyManager extends X509ExtendedKeyManager {

  private static final String ALIAS = "party";

  private final PrivateKey key;
  private final X509Certificate[] chain;

  FixedKeyManager(PrivateKey key, X509Certificate certificate) {
    this.key = key;
    this.chain = new X509Certificate[] {certificate};
  }

  private String aliasFor(String keyType) {
    return keyType != null && keyType.equalsIgnoreCase(key.getAlgorithm()) ? ALIAS : null;
  }

  private String aliasFor(String[] keyTypes) {
    if (keyTypes != null) {
      for (String type : keyTypes) {
        if (aliasFor(type) != null) {
          return ALIAS;
        }
      }
    }
    return null;
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return aliasFor(keyType) == null ? null : new String[] {ALIAS};
  }

  @Override
  public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
    return aliasFor(keyTypes);
  }

  @Override
  public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
    return aliasFor(keyTypes);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return aliasFor(keyType) == null ? null : new String[] {ALIAS};
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return aliasFor(keyType);
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return aliasFor(keyType);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return ALIAS.equals(alias) ? chain.clone() : null;
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return ALIAS.equals(alias) ? key : null;
  }
}
