/** An example third-party run stage, found through {@link java.util.ServiceLoader}. */
package com.example.provenance;
