/**
 * An example third-party adapter: what an adapter author ships as one small jar compiled
 * against {@code harness-api} only, registered in {@code META-INF/services}.
 */
package com.example.notesagent;
