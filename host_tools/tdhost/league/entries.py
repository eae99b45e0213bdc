"""The TD's decisions on who enters: registration, the standby list, latecomers,
absent players arriving, standby players taking a freed seat, and the chips each gets.
Each returns the payload of the event that records it, or raises ActionRefused
(docs/host.md §4, the LPPL paragraphs quoted there)."""

import datetime
from typing import Collection, Optional

from tdhost.league import pulled as _pulled, reducers as _reducers
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.seats import check_free, pick_seat
from tdhost.league.text import (
    MAX_NAME,
    clean_name,
    is_printable,
    player_key,
    quote_name,
    same_person,
    seat_text,
)
from tdhost.league.times import iso, mmss
from tdhost.league.tournament import Payload, Seat, Tournament


def late_stack(tournament: Tournament, when: datetime.datetime
               ) -> tuple[int, bool, int, str]:
    """(stack, dead_bb, level, sentence) for a latecomer or standby player entering at
    *when* (LPPL ¶12, ¶13, ¶15)."""
    late = tournament.setup["late"]
    full = tournament.setup["starting_stack"]
    level, _ = tournament.level_at(when)
    mins = tournament.minutes_since_start(when)
    if late["grace_minutes"] and mins <= late["grace_minutes"]:
        dead = late["grace_dead_bb"]
        return full, dead, level, "within %d minutes of the start (%s): %d chips, no " \
            "deduction%s" % (late["grace_minutes"], mmss(mins), full,
                             "; post a dead big blind to enter" if dead else "")
    ded = sum(tournament.deductions()[:level])
    if not ded:
        return full, False, level, "level %d: the full stack of %d chips" % (level, full)
    return full - ded, False, level, "level %d: %d chips (%d less %d)" % (
        level, full - ded, full, ded)



def absent_deduction(tournament: Tournament, when: datetime.datetime
                     ) -> tuple[int, bool, str]:
    """(chips to remove, dead_bb, sentence) for a registered player who was not seated
    at the start and arrives at *when* (LPPL ¶14)."""
    late = tournament.setup["late"]
    level, _ = tournament.level_at(when)
    mins = tournament.minutes_since_start(when)
    if not late["absent_deductions"]:
        return 0, False, "no chips are removed for arriving late (profile %s)" % (
            tournament.setup["profile"])
    if mins <= late["grace_minutes"]:
        dead = late["grace_dead_bb"]
        return 0, dead, "within %d minutes of the start (%s): no chips removed%s" % (
            late["grace_minutes"], mmss(mins),
            "; post a dead big blind to enter" if dead else "")
    ded = tournament.deductions()
    parts = ["%d after %d minutes" % (ded[0], late["grace_minutes"])] if ded else []
    parts += ["%d more at level %d" % (d, i + 1) for i, d in enumerate(ded[1:level], 1)]
    total = sum(ded[:level])
    return total, False, "level %d, %s after the start: %d chips removed (%s)" % (
        level, mmss(mins), total, ", ".join(parts) or "none")



def decide_register(tournament: Tournament, name: str, member: bool,
                    when: datetime.datetime, league: League, seq: int,
                    member_no: str | None = None) -> tuple[Payload, str]:
    """The register event of *name* (a member with *member_no*, the league's identity,
    when given) and its sentence."""
    tournament.refuse_if_finished()
    name = clean_name(name)
    check_member_no(league, name, member_no, tournament)
    entry = tournament.get(name)
    if entry is not None:
        if entry.state == "standby":
            raise ActionRefused("%s is already on the standby list (number %d)"
                                % (entry.name, tournament.standby.index(player_key(name)) + 1))
        raise ActionRefused("%s is already registered" % entry.name)
    if tournament.started:
        raise ActionRefused("the tournament has started: a latecomer joins with "
                            "`tdhost late %s`" % quote_name(name))
    name = league.display_name(name)
    member = member or league.is_member(name)
    was = league.numbers.get(member_no.casefold()) if member_no else None
    renamed = " (the league knew %s as %s)" % (member_no, league.names.get(was, was)) \
        if was is not None and was != player_key(name) else ""
    cap, sb = tournament.setup["max_players"], tournament.setup["standby"]
    payload = {"name": name, "member": member or bool(member_no), "standby": False,
               "seat": None}
    if member_no:
        payload["member_no"] = member_no
    if cap is not None and tournament.field_size() >= cap:
        if len(tournament.standby) >= sb:
            raise ActionRefused("%s and %s" % (
                full_text(tournament), "so is the standby list (%d players)" % sb if sb
                else "has no standby list"))
        payload["standby"] = True
        return payload, "The tournament is full (%d players): %s is standby player %d " \
            "of %d." % (cap, name, len(tournament.standby) + 1, sb)
    count = "%d of %d" % (tournament.field_size() + 1, cap) if cap else "%d registered" % (
        tournament.field_size() + 1)
    if tournament.draw:
        seat = pick_seat(tournament, name, seq)
        payload["seat"] = seat
        return payload, "%s is registered (%s) and drawn to %s%s." % (
            name, count, seat_text(seat), renamed)
    return payload, "%s is registered (%s)%s%s." % (
        name, count, ", member %s" % member_no if member_no else ", a member" if member else "",
        renamed)



def check_member_no(league: League, name: str, member_no: str | None,
                    tournament: Tournament) -> None:
    """A member number is the player's identity in the league: ActionRefused when
    *member_no* is another player's in *tournament*, or *name* has another number.  A
    known number with a new name, its member not in this tournament, is the member under
    a new name (the league table shows the latest)."""
    if not member_no:
        return
    owner = league.numbers.get(member_no.casefold())
    if owner is not None and owner != player_key(name) and any(
            league.number_of(entry.name) == member_no.casefold()
            for entry in tournament.players.values()):
        raise ActionRefused("%s is the member number of %s: register them by that name, or "
                            "give %s their own number" % (
                                member_no, league.names.get(owner, owner), clean_name(name)))
    known = league.number_of(name)
    if known is not None and known != member_no.casefold():
        raise ActionRefused("%s's member number is %s, not %s" % (
            league.display_name(name), known.upper(), member_no))


def duplicate_doubt(tournament: Tournament, league: League, name: str) -> str | None:
    """Why *name* may be a player already entered under another spelling ("Carla Nunez may
    be Carla Núñez, already registered (the same name but for accents)"), or None: the
    tournament's players by accents and close spellings, the league's by accents."""
    key = player_key(name)
    for entry in tournament.players.values():
        why = same_person(name, entry.name) if player_key(entry.name) != key else None
        if why:
            return "%s may be %s, already %s (%s)" % (
                clean_name(name), entry.name,
                "on the standby list" if entry.state == "standby" else "registered", why)
    if key not in league.names:
        for other in league.names.values():
            why = same_person(name, other)
            if why == "the same name but for accents":
                return "%s may be %s of the league (%s)" % (clean_name(name), other, why)
    return None


def member_number(typed: Optional[str]) -> Optional[str]:
    """A member number as the TD typed it (`--member-no`, the console's field), whitespace
    tidied, or None when not given; ActionRefused with one sentence when it cannot be one."""
    if typed is None:
        return None
    member_no = " ".join(str(typed).split())
    if not member_no:
        raise ActionRefused("the member number is blank: give it as on the member's card")
    if len(member_no) > MAX_NAME or not is_printable(member_no):
        raise ActionRefused("%r is not a member number: give it as on the member's card, "
                            "up to %d letters and digits" % (member_no[:MAX_NAME + 1], MAX_NAME))
    return member_no


def decide_registers(tournament: Tournament, league: League, typed: list[str], member: bool,
                     member_no: str | None, allowed: Collection[str], known: "_pulled.Members",
                     when: datetime.datetime, seq: int, how: str,
                     doubts: Optional[list[tuple[str, str]]] = None
                     ) -> list[tuple[Payload, str]]:
    """The register events of the names the TD typed (`tdhost register` and the console's
    Register, alike), each applied to *tournament* and *league* so the next name sees it:
    a league member (*known*, as last pulled) by the league's spelling; *member_no* the
    one player's member number (its duplicates refused as the CSV import refuses them); a
    name that may be a player already in refused until its key is in *allowed*, with *how*
    ("`--allow-duplicate %s` registers them as another player") saying what to do.
    [(payload, its sentence)], or ActionRefused with one sentence (nothing for any name).
    With *doubts* (the console's look before it asks), such a name is not refused but
    listed there as (name, why)."""
    member_no = member_number(member_no)
    if member_no is not None and len(typed) != 1:
        raise ActionRefused("a member number is one player's: register one name with it, "
                            "not %d" % len(typed))
    out: list[tuple[Payload, str]] = []
    for i, name in enumerate(typed):
        name, is_member = _pulled.league_member(known, league, name, member, member_no)
        payload, msg = decide_register(tournament, name, is_member, when, league, seq + i,
                                       member_no)
        doubt = duplicate_doubt(tournament, league, name)
        if doubt and player_key(name) not in allowed and doubts is not None:
            doubts.append((payload["name"], doubt))
        elif doubt and player_key(name) not in allowed:
            raise ActionRefused("%s: %s" % (doubt, how % quote_name(payload["name"])))
        _reducers.apply(tournament, "register", payload)
        league.names.setdefault(player_key(payload["name"]), payload["name"])
        if payload["member"]:
            league.members.add(player_key(payload["name"]))
        if payload.get("member_no"):
            league.note_member_no(payload["name"], payload["member_no"])
        out.append((payload, msg))
    return out


def decide_unregister(tournament: Tournament, name: str) -> Payload:
    """Take back a registration made in error: a player registered or on the standby list,
    or, after the start, one never seated (absent); a player who has played is busted,
    never unregistered."""
    tournament.refuse_if_finished()
    entry = tournament.need(name)
    if entry.state == "out":
        raise ActionRefused("%s is already out: a player who has played stays in the "
                            "results" % entry.name)
    if entry.state == "in" and not entry.absent:
        raise ActionRefused("%s is playing at %s: a player who has played is busted "
                            "(`tdhost bust %s`), not unregistered" % (
                                entry.name, seat_text(entry.seat) if entry.seat else
                                "a table", quote_name(entry.name)))
    return {"name": entry.name, "state": entry.state, "seat": entry.seat}


def full_text(tournament: Tournament) -> str:
    """Why a newcomer is refused at the cap, naming the rule: max_players counts entries
    (players knocked out too), not seats in play."""
    cap = tournament.setup["max_players"]
    text = "the tournament is full: %d entries of the %d that max_players allows" % (
        tournament.field_size(), cap)
    if tournament.started:
        text += " (it counts every entry, players knocked out too: %d in play)" % len(
            tournament.remaining())
    return text



def decide_standby_add(tournament: Tournament, name: str, member: bool,
                       league: League) -> tuple[Payload, str]:
    tournament.refuse_if_finished()
    name = clean_name(name)
    cap, sb = tournament.setup["max_players"], tournament.setup["standby"]
    entry = tournament.get(name)
    if entry is not None:
        raise ActionRefused("%s is already registered" % entry.name if entry.state == "registered"
                            else tournament.state_sentence(entry))
    if not sb:
        raise ActionRefused("this tournament has no standby list (standby = 0 in the file)")
    if tournament.field_size() < cap:
        raise ActionRefused("the tournament is not full (%d of %d players): %s"
                            % (tournament.field_size(), cap, "register the player with `tdhost "
                               "register`" if not tournament.started else "a latecomer joins with "
                               "`tdhost late`"))
    if len(tournament.standby) >= sb:
        raise ActionRefused("the standby list is full (%d players)" % sb)
    name = league.display_name(name)
    return {"name": name, "member": member or league.is_member(name), "standby": True,
            "seat": None}, "%s is standby player %d of %d." % (name, len(tournament.standby) + 1,
                                                                sb)



def late_window(tournament: Tournament, when: datetime.datetime) -> int:
    """The level if late entry is open at *when*, else ActionRefused."""
    late = tournament.setup["late"]
    until = late["until_level"]
    if until is None:
        raise ActionRefused("there is no late registration in this tournament (the file gives "
                            "no late_entry.until_level for profile %s)"
                            % tournament.setup["profile"])
    level, clock = tournament.level_at(when)
    if not clock.late_entry_open():  # the boxes' own window (tableclock.clock)
        raise ActionRefused("level %d has started: late entry closes at the start of level %d"
                            % (level, until))
    return level



def decide_late(tournament: Tournament, name: str, member: bool, when: datetime.datetime,
                league: League, seq: int, seat: Optional[Seat] = None,
                spare: Collection[int] = (), member_no: Optional[str] = None) -> Payload:
    """A latecomer's ``late`` event (with *member_no*, the league's identity, checked as a
    registration's is), or ActionRefused with one sentence."""
    tournament.start_time()
    name = clean_name(name)
    member_no = member_number(member_no)
    check_member_no(league, name, member_no, tournament)
    entry = tournament.get(name)
    if entry is not None:
        if entry.state == "registered":
            raise ActionRefused("%s is registered: `tdhost arrive %s`"
                                % (entry.name, quote_name(entry.name)))
        if entry.state == "standby":
            raise ActionRefused("%s is standby player %d: standby players take a freed seat "
                                "(`tdhost standby --take`)" % (
                                    entry.name, tournament.standby.index(player_key(name)) + 1))
        if entry.state == "in" and entry.absent:
            raise ActionRefused("%s is registered and has a seat: `tdhost arrive %s`"
                                % (entry.name, quote_name(entry.name)))
        raise ActionRefused(tournament.state_sentence(entry))
    tournament.refuse_if_before_start(when)
    late_window(tournament, when)
    cap = tournament.setup["max_players"]
    if cap is not None and tournament.field_size() >= cap:
        raise ActionRefused("%s%s" % (
            full_text(tournament), ": `tdhost standby %s` puts the player on the standby list"
            % quote_name(name) if len(tournament.standby) < tournament.setup["standby"] else ""))
    late = tournament.setup["late"]
    reasons = []
    need = late["min_players"]
    if need:
        rem, out = len(tournament.remaining()), len(tournament.entries("out"))
        started = tournament.started_on_time
        if rem >= need:
            reasons.append("%d players remain (at least %d are needed)" % (rem, need))
        elif started < need and out == 0:
            reasons.append("fewer than %d players started (%d) and nobody is out yet"
                           % (need, started))
        elif started < need:
            raise ActionRefused("only %d players remain and %d %s been knocked out: with fewer "
                                "than %d starters (%d) a latecomer may join only while nobody "
                                "is out" % (rem, out, "has" if out == 1 else "have", need,
                                      started))
        else:
            raise ActionRefused("only %d players remain: a latecomer needs at least %d players "
                                "in the game before joining" % (rem, need))
    stack, dead, lv, why = late_stack(tournament, when)
    reasons.append(why)
    name = league.display_name(name)
    if seat is None:
        seat = pick_seat(tournament, name, seq)
    else:
        check_free(tournament, seat, spare)
    payload = {"name": name, "member": member or league.is_member(name) or bool(member_no),
               "time": iso(when), "level": lv, "stack": stack, "dead_bb": dead, "seat": seat,
               "reasons": reasons}
    if member_no:  # the member's identity in the league (docs/league.md, "Members")
        payload["member_no"] = member_no
    return payload



def decide_reenter(tournament: Tournament, name: str, when: datetime.datetime, seq: int,
                   seat: Optional[Seat] = None, spare: Collection[int] = ()) -> Payload:
    """A player who is out buys a new entry where the tournament file allows it
    (``[reentry]``: at most ``max`` a player, up to the end of level ``until_level``): a new
    seat (drawn as a latecomer's) and the starting stack.  The new entry counts in the
    field and for the points (docs/host.md §4.3 "Re-entry")."""
    tournament.start_time()
    rule = tournament.reentry_rule()
    if not rule["max"]:
        raise ActionRefused("tournament %d allows no re-entry (its file's [reentry] max is 0)"
                            % tournament.number)
    entry = tournament.get(name)
    if entry is None or entry.state != "out":
        raise ActionRefused("only a player who is out may re-enter: %s" % (
            tournament.state_sentence(entry) if entry is not None
            else "%s is not in tournament %d" % (name, tournament.number)))
    if entry.reentries >= rule["max"]:
        raise ActionRefused("%s has re-entered %s already, the most a player may (reentry max"
                            " = %d)" % (entry.name, "once" if entry.reentries == 1 else
                                        "%d times" % entry.reentries, rule["max"]))
    tournament.refuse_if_before_start(when)
    level, _ = tournament.level_at(when)
    if level > rule["until_level"]:
        raise ActionRefused("re-entry closed at the end of level %d; this is level %d"
                            % (rule["until_level"], level))
    cap = tournament.setup["max_players"]
    if cap is not None and tournament.field_size() >= cap:
        raise ActionRefused(full_text(tournament))
    if seat is None:
        seat = pick_seat(tournament, entry.name, seq)
    else:
        check_free(tournament, seat, spare)
    return {"name": entry.name, "time": iso(when), "level": level,
            "stack": tournament.setup["starting_stack"], "seat": seat,
            "entry": entry.reentries + 2}


def decide_arrive(tournament: Tournament, name: str, when: datetime.datetime) -> Payload:
    tournament.start_time()
    entry = tournament.need(name, ("in",))
    if not entry.absent:
        raise ActionRefused("%s is already seated (%s)" % (
            entry.name, seat_text(entry.seat) if entry.seat else "no seat"))
    tournament.refuse_if_before_start(when)
    if entry.absent == "away":
        return {"name": entry.name, "time": iso(when), "deduction": 0, "dead_bb": False,
                "reason": "away at the start with known whereabouts: no chips removed"}
    ded, dead, why = absent_deduction(tournament, when)
    return {"name": entry.name, "time": iso(when), "deduction": ded, "dead_bb": dead,
            "reason": why}



def decide_standby_take(tournament: Tournament, name: str, when: datetime.datetime,
                        seat: Optional[Seat] = None) -> Payload:
    tournament.start_time()
    entry = tournament.need(name, ("standby",))
    key = player_key(name)
    pairs = tournament.offer_pairs()
    if not pairs:
        raise ActionRefused("no seat is free for a standby player: standby players join when "
                            "a player is knocked out before level %s starts"
                            % tournament.setup["late"]["until_level"])
    mine = [offer for offer, who in pairs if who == key]
    if not mine:
        first = [(offer, who) for offer, who in pairs if who]
        offer, who = first[0] if first else (pairs[0][0], None)
        if who is None:
            raise ActionRefused("%s has passed on every free seat" % entry.name)
        raise ActionRefused("%s is offered to %s first (standby %d); if %s is not available: "
                            "`tdhost standby --pass %s`" % (
                                seat_text(offer["seat"]), tournament.players[who].name,
                                tournament.standby.index(who) + 1, tournament.players[who].name,
                                quote_name(tournament.players[who].name)))
    tournament.refuse_if_before_start(when)
    offer = mine[0]
    target = list(seat) if seat else offer["seat"]
    check_free(tournament, target)
    stack, dead, lv, why = late_stack(tournament, when)
    return {"name": entry.name, "time": iso(when), "level": lv, "stack": stack,
            "dead_bb": dead, "seat": list(target), "offer": offer["seat"],
            "reasons": ["%s was knocked out before level %s: %s" % (
                offer["freed_by"], tournament.setup["late"]["until_level"], why)]}



def decide_standby_pass(tournament: Tournament, name: str) -> Payload:
    tournament.start_time()
    entry = tournament.need(name, ("standby",))
    key = player_key(name)
    mine = [offer for offer, who in tournament.offer_pairs() if who == key]
    if not mine:
        raise ActionRefused("no seat is offered to %s now" % entry.name)
    return {"name": entry.name, "offer": mine[0]["seat"]}
