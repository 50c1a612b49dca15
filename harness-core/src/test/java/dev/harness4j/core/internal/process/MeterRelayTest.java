package dev.harness4j.core.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeterRelayTest {
    @TempDir Path tmp;

    /** A relay dir whose socket file is left by a process that bound it and died (nothing listens). */
    private Path deadRelay(String name, Duration age) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve(name));
        try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(UnixDomainSocketAddress.of(dir.resolve("meter.sock")));
        }
        Files.setLastModifiedTime(dir, FileTime.from(Instant.now().minus(age)));
        return dir;
    }

    @Test
    void theDirsOfDeadRelaysAreSweptAndLiveYoungOrForeignOnesAreNot() throws Exception {
        Path dead = deadRelay("h4j-relay111", Duration.ofHours(1));
        Path young = deadRelay("h4j-relay222", Duration.ZERO);
        Path foreign = deadRelay("other-dir", Duration.ofHours(1));
        Path live = Files.createDirectory(tmp.resolve("h4j-relay333"));
        try (ServerSocketChannel listening = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            listening.bind(UnixDomainSocketAddress.of(live.resolve("meter.sock")));
            Files.setLastModifiedTime(live, FileTime.from(Instant.now().minus(Duration.ofHours(1))));

            int removed = MeterRelay.sweepStale(tmp, Duration.ofMinutes(1));

            assertThat(removed).isEqualTo(1);
            assertThat(dead).doesNotExist();
            assertThat(young.resolve("meter.sock")).exists();
            assertThat(foreign.resolve("meter.sock")).exists();
            assertThat(live.resolve("meter.sock")).exists();
        }
    }

    @Test
    void aRelayForwardsToItsPortAndRemovesItsDirOnClose() throws Exception {
        try (ServerSocketChannel upstream = ServerSocketChannel.open()) {
            upstream.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
            int port = ((java.net.InetSocketAddress) upstream.getLocalAddress()).getPort();
            Path dir;
            try (MeterRelay relay = MeterRelay.start(port)) {
                dir = relay.socket().getParent();
                try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(relay.socket()));
                        SocketChannel accepted = upstream.accept()) {
                    c.write(ByteBuffer.wrap("ping".getBytes(StandardCharsets.UTF_8)));
                    ByteBuffer buf = ByteBuffer.allocate(4);
                    while (buf.hasRemaining() && accepted.read(buf) >= 0) {
                        // until the four bytes are in
                    }
                    assertThat(new String(buf.array(), StandardCharsets.UTF_8)).isEqualTo("ping");
                }
            }
            assertThat(dir).doesNotExist();
        }
    }
}
