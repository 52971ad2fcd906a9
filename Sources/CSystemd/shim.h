#ifndef TODOD_CSYSTEMD_SHIM_H
#define TODOD_CSYSTEMD_SHIM_H

#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>

/* SD_BUS_ERROR_NULL is a macro Swift does not import. */
static inline sd_bus_error todod_bus_error_null(void) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    return error;
}

#endif
