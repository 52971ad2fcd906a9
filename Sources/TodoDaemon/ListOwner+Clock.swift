import Foundation
import NIOCore
import TodoModel
import TodoOwner
import TodoViewModels

/// The owner's clock: ticks that fire reminders and re-word dates, aimed at
/// the next event the state asks for, and reloaded settings that move it.
extension ListOwner {
    /// Starts the timer that fires reminders and re-words dates.
    public func startClock() {
        loop.execute {
            self.tick()
            self.finishTurn()
        }
    }

    public func stopClock() {
        loop.execute { self.cancelTimer() }
    }

    /// Applies a new reminder age (a reloaded configuration): reminders the
    /// new age makes due fire now, and the timer aims at the new next one.
    public func changeReminderAge(to age: TimeInterval) async {
        await run { owner in
            guard owner.state.withValue({ $0.changeReminderAge(to: age) }) else { return }
            owner.restartClockIfRunning()
        }
    }

    /// Applies reloaded desktop settings: every view's `desktopReminders`
    /// follows at once, and the timer aims at the new next event (a longer
    /// lead may fire "due soon" reminders now).
    public func changeDesktopSettings(_ settings: DesktopReminderSettings, dueSoonLead: TimeInterval) async {
        await run { owner in
            guard owner.state.withValue({ $0.changeDesktopSettings(settings, dueSoonLead: dueSoonLead) }) else { return }
            owner.restartClockIfRunning()
        }
    }

    /// Replaces the declared fields (a reloaded todod.conf): every view's
    /// query is read again and every view is sent whole. Nothing is stored.
    public func changeFields(_ fields: FieldCatalog) async {
        await turn { $0.changeFields(fields) }
    }

    /// Returns as soon as the owner's loop runs it. The watchdog pings
    /// systemd only after this returns, so an owner that no longer turns
    /// stops the pings and systemd restarts todod.
    public func heartbeat() async {
        await run { _ in }
    }

    /// Blocks the owner's thread for good, as a wedged daemon would: only
    /// reachable with `todod --test-hooks` (SIGUSR2), to prove the watchdog.
    public func wedgeForTesting() {
        loop.execute { while true { sleep(3600) } }
    }

    private func restartClockIfRunning() {
        guard clock.value.deadline != nil else { return }
        cancelTimer()
        tick()
    }

    private func cancelTimer() {
        clock.withValue { clock in
            clock.timer?.cancel()
            clock = Clock()
        }
    }

    func scheduleTick(at deadline: Date) {
        clock.withValue { clock in
            if let current = clock.deadline, current <= deadline { return }
            clock.timer?.cancel()
            clock.deadline = deadline
            // Sleep at most an hour at a time, so a suspended machine or a changed
            // wall clock delays a reminder by an hour at worst.
            let delay = min(max(0, deadline.timeIntervalSinceNow), 3600)
            clock.timer = loop.scheduleTask(in: .milliseconds(Int64(delay * 1000) + 1)) {
                self.tick()
                self.finishTurn()
            }
        }
    }

    private func tick() {
        clock.value = Clock()
        state.withValue { $0.tick() }
    }
}
