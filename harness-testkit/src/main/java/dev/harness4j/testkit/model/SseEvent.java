package dev.harness4j.testkit.model;

/**
 * One server-sent event.
 *
 * @param event the {@code event:} name, or {@code null} for a bare {@code data:} line
 * @param data the {@code data:} payload
 */
record SseEvent(String event, String data) {
    String wire() {
        return (event == null ? "" : "event: " + event + "\n") + "data: " + data + "\n\n";
    }
}
