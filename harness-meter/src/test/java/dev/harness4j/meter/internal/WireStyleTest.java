package dev.harness4j.meter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WireStyleTest {
    @Test
    void aMalformedEscapeInTheModelSegmentIsKeptAsItCameInsteadOfThrowing() {
        assertThat(WireStyle.geminiModel("/v1beta/models/gemini%zz:streamGenerateContent")).isEqualTo("gemini%zz");
        assertThat(WireStyle.geminiModel("/v1beta/models/gemini%2:generateContent")).isEqualTo("gemini%2");
    }

    @Test
    void aPlusIsAPlusAndPercentEscapesAreDecoded() {
        assertThat(WireStyle.geminiModel("/v1beta/models/a+b:generateContent")).isEqualTo("a+b");
        assertThat(WireStyle.geminiModel("/v1beta/models/a%2Bb%20c:generateContent")).isEqualTo("a+b c");
        assertThat(WireStyle.geminiModel("/v1beta/models/a%2Fb:generateContent")).as("an encoded slash is no model")
                .isNull();
    }
}
