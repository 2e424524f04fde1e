"""Projects built in stages (`project NAME "Title" { requires where COND; stage { cost
...; points N } ... }`): a wonder, a great bridge. Any player may buy a project's first
stage when its requirement holds and they pay the stage's cost; that makes them the
owner, and only the owner buys the next stages, one at a time, in order. Each stage's
points count for the owner (`points`). A phase allows it with the activity `projects`
(or `projects NAME, ...`); rules read `project_level(NAME)` and `project_owner(NAME)`,
and the event `stage_built(NAME)` follows every stage.

State data: `project_level` [project] stages built, `project_owner` [project] the owner
or -1 (exactly while no stage is built)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import costs
from catandsl.rules import words as w
from catandsl.rules.base import Action, Activity, IllegalAction, action_source, activity
from catandsl.rules.placement import affordable, pay
from catandsl.rules.play import NO_ANSWERS, Game, State
from catandsl.rules.registry import BOARD, EVERYTHING, query


@dataclass(frozen=True, order=True)
class BuildStage(Action):
    """Buy the next stage of a project."""

    KIND: ClassVar[str] = "build_stage"
    HEADING: ClassVar[str] = "Build a stage"
    WRITES: ClassVar[frozenset[str]] = EVERYTHING  # its event's rules may write anything
    project: str

    def words(self, told: w.Told) -> str:
        declared = told.game.ruleset.projects.get(self.project)
        return f"build a stage of {declared.title if declared is not None else w.spoken(self.project)}"


@action_source
def stage_actions(game: Game) -> list[Action]:
    return [BuildStage(name) for name in game.ruleset.projects]


@dataclass(frozen=True)
class ProjectLookups:
    """The projects' stages: their ids, costs and points."""

    names: tuple[str, ...]
    index: dict[str, int]
    ids: tuple[int, ...]  # the BuildStage action id of each project
    costs: tuple[tuple[tuple[int, ...], ...], ...]  # [project][stage] resource vector
    points: tuple[tuple[int, ...], ...]  # [project][stage]

    @classmethod
    def build(cls, game: Game) -> ProjectLookups:
        projects = tuple(game.ruleset.projects.values())
        return cls(tuple(p.name for p in projects), {p.name: k for k, p in enumerate(projects)},
                   tuple(game.action_id[BuildStage(p.name)] for p in projects),
                   game.lookups(costs.CostLookups).stage_cards,
                   tuple(tuple(st.points for st in p.stages) for p in projects))


def why_not(s: State, p: int, k: int) -> tuple[str, str]:
    """Why player p may not buy the next stage of project k now: (code, reason), or
    ("", "") when they may."""
    g = s.game
    t = g.lookups(ProjectLookups)
    level, owner = s.project_level[k], s.project_owner[k]
    project = g.ruleset.projects[t.names[k]]
    if level >= len(t.costs[k]):
        return "project/complete", "every stage is built"
    if owner >= 0 and owner != p:
        return "project/owned", f"player {owner + 1} owns it"
    if project.requires is not None and not g.interp.program(project.requires, project.source).run(
            {"player": p, "level": level}, s, NO_ANSWERS):
        return "project/requirement", "its requirement does not hold"
    if not affordable(s.hands[p], costs.cost_of(s, p, "stage", k).cards):
        return "project/cannot_afford", f"cannot afford stage {level + 1}"
    return "", ""


def stage_points(s: State, player: int) -> int:
    """The points of the stages built in the projects the player owns."""
    t = s.game.lookups(ProjectLookups)
    return sum(sum(t.points[k][:s.project_level[k]])
               for k, owner in enumerate(s.project_owner) if owner == player)


def _legal(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    t = s.game.lookups(ProjectLookups)
    return [t.ids[k] for k, name in enumerate(t.names)
            if (names is None or name in names) and not why_not(s, p, k)[0]]


def _apply(s: State, p: int, act: BuildStage) -> None:
    t = s.game.lookups(ProjectLookups)
    k = t.index[act.project]
    pay(s, p, costs.cost_of(s, p, "stage", k).cards)
    s.project_level[k] += 1
    s.project_owner[k] = p
    s.emit("stage_built", {"player": p, "project": act.project, "level": s.project_level[k]})


def _refusal(s: State, p: int, act: BuildStage) -> IllegalAction:
    code, why = why_not(s, p, s.game.lookups(ProjectLookups).index[act.project])
    return IllegalAction(code or "project/not_now", f"build_stage {act.project}: {why or 'not now'}")


PROJECTS = activity(Activity(
    "projects", "buy the next stage of a project (a phase may name the projects)",
    _legal, {BuildStage: _apply}, names="project", subject=lambda game, act: act.project,
    refusal=_refusal))


@query("project: project", returns="int", reads=BOARD)
def project_level(s: State, project: str) -> int:
    """The stages of the project built so far (0 to its number of stages)."""
    return s.project_level[s.game.lookups(ProjectLookups).index[project]]


@query("project: project", returns="player", reads=BOARD)
def project_owner(s: State, project: str) -> int:
    """The player who owns the project (who bought its first stage), or -1."""
    return s.project_owner[s.game.lookups(ProjectLookups).index[project]]
