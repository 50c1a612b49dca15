package dev.harness4j.testkit.model;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh scripted server per test and a JDK HttpClient speaking to it: the protocol tests' common set-up. */
abstract class ProtocolTest {
    protected ScriptedModelServer server;
    protected Http http;

    @BeforeEach
    void startServer() {
        server = ScriptedModelServer.start();
        http = new Http(server.baseUrl());
    }

    @AfterEach
    void stopServer() {
        server.close();
    }
}
