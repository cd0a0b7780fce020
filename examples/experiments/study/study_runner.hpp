// SPDX-License-Identifier: BSL-1.0
// The study runner: a registered study's design read, the runs it lists not
// yet in its grid run on every core, each finished run's row appended as it
// ends, the refused ones recorded with the program's message; then the
// study's verdict program.
//
// Contract
//   A study (study_kind) says, from its design and what is in its grid, which
//   runs are due (each a key: the grid's first fields, seed last; and the
//   program's arguments), and makes a finished run's row from the files the
//   program wrote. run_study(kind, folder, jobs) runs the due runs `jobs` at
//   a time, each a process (study_process.hpp) in a scratch folder, and
//   appends as each ends: the lines of the study's other files, then its
//   row to grid.csv; a program that exits 2 refused its run, recorded in
//   refused.csv with its message and not run again; any other failure is
//   reported and ends the study once the running runs end (exit 1). Runs
//   already in the grid or refused are not run again, so a stopped study
//   goes on where it stopped; rounds repeat while runs become due (rows a
//   condition waits for). table is a CSV read whole, its first line the
//   header, refused naming file, line and column (cli::csv_lines).
#ifndef INTERLOCK_EXAMPLES_STUDY_RUNNER_HPP
#define INTERLOCK_EXAMPLES_STUDY_RUNNER_HPP

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "csv_file.hpp"
#include "study_process.hpp"

namespace study {

/// A CSV file of named columns, every field as text.
struct table {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> lines;  // each row's line in the file

  /// The index of column `name` (bad_input naming the file otherwise).
  std::size_t column(const std::string& name) const {
    for (std::size_t k = 0; k < header.size(); ++k)
      if (header[k] == name) return k;
    throw cli::bad_input{path + ":1:1: no column '" + name + "'"};
  }
  /// Row r's field in column `name`.
  const std::string& at(std::size_t r, const std::string& name) const {
    return rows[r][column(name)];
  }
};

/// The file at `path` under `header` (a file holding only the header has no
/// rows; `flag` names where the path came from).
inline table read_table(const std::string& flag, const std::string& path,
                        const std::string& header) {
  table t;
  t.path = path;
  t.header = cli::split(header);
  for (const cli::csv_line& x : cli::csv_lines(cli::file_text(flag, path), path, header)) {
    std::vector<std::string> row;
    for (const auto& f : x.fields) row.push_back(f.first);
    t.rows.push_back(row);
    t.lines.push_back(x.number);
  }
  return t;
}

/// Appends `text` (whole lines) to `path`, or throws naming the file.
inline void append(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::app);
  f << text;
  f.flush();
  if (!f) throw std::runtime_error("cannot append to " + path);
}

/// A file holding only `header`, when it is missing or empty; else one whose
/// first line must be `header`.
inline void ensure_header(const std::string& path, const std::string& header) {
  std::ifstream in(path);
  std::string first;
  if (!in || !std::getline(in, first) || first.empty()) {
    std::ofstream out(path, std::ios::trunc);
    out << header << "\n";
    if (!out) throw std::runtime_error("cannot write " + path);
    return;
  }
  if (first != header) throw cli::bad_input{path + ":1:1: the header is not the file's"};
}

/// One run: its key (the grid's first fields, seed last), the program's
/// arguments (argv[0] the program's path; "{out}" in an argument is the
/// run's scratch folder) and how it is named in the progress lines.
struct planned_run {
  std::vector<std::string> key;
  std::vector<std::string> argv;
  std::string label;
};

/// What a finished run adds: its row's fields after the key, and lines for
/// the study's other files (path, lines), appended before the row.
struct finished_run {
  std::string fields;
  std::vector<std::pair<std::string, std::string>> files;
};

class study_kind {
 public:
  virtual ~study_kind() = default;
  virtual std::string design_header() const = 0;
  virtual std::string grid_header() const = 0;
  /// The grid's first fields that name a run, the seed the last of them.
  virtual std::size_t key_fields() const = 0;
  /// The other files the study appends to, each with its header.
  virtual std::vector<std::pair<std::string, std::string>> other_files() const { return {}; }
  /// The runs due: not in `done` (keys of the grid's and refused runs).
  virtual std::vector<planned_run> due(const table& design, const table& grid,
                                       const std::set<std::vector<std::string>>& done) const = 0;
  /// A finished run's row from the files in its scratch folder.
  virtual finished_run collect(const planned_run& r, const scratch_folder& out) const = 0;
  /// Reads the design and grid as the verdict will, before any run: 0 when
  /// they are sound, else the status to exit with (the message printed).
  virtual int check() const { return 0; }
  /// The verdict (and what the study draws) from the files; returns the
  /// exit status.
  virtual int verdict() const = 0;
  /// Studies whose program runs the whole design itself override this.
  virtual bool runs_itself() const { return false; }
  virtual int run_itself(std::size_t) const { return 0; }
};

/// The refused runs' header: the grid's key fields and the message.
inline std::string refused_header(const study_kind& kind) {
  const std::vector<std::string> names = cli::split(kind.grid_header());
  std::string h;
  for (std::size_t k = 0; k < kind.key_fields(); ++k) h += names[k] + ",";
  return h + "message";
}

/// The grid, the refused runs' file and the study's other files, each
/// made holding its header when missing or empty (refused when another).
inline void prepare_files(const study_kind& kind, const std::string& folder) {
  ensure_header(folder + "/grid.csv", kind.grid_header());
  ensure_header(folder + "/refused.csv", refused_header(kind));
  for (const auto& f : kind.other_files()) ensure_header(f.first, f.second);
}

/// Runs every due run of `kind`, `jobs` at a time; 0, or 1 when a run failed.
inline int run_study(const study_kind& kind, const std::string& folder, std::size_t jobs) {
  const std::string design_path = folder + "/design.csv", grid_path = folder + "/grid.csv",
                    refused_path = folder + "/refused.csv";
  const std::string grid_header = kind.grid_header(), refused = refused_header(kind);
  prepare_files(kind, folder);
  const table design = read_table("--design", design_path, kind.design_header());
  std::mutex lock;
  bool failed = false;
  for (;;) {
    const table grid = read_table("--grid", grid_path, grid_header);
    const table refusals = read_table("--refused", refused_path, refused);
    std::set<std::vector<std::string>> done;
    for (const table* t : {&grid, &refusals})
      for (const auto& row : t->rows)
        done.insert(std::vector<std::string>(
            row.begin(), row.begin() + static_cast<std::ptrdiff_t>(kind.key_fields())));
    std::vector<planned_run> runs;
    for (planned_run& r : kind.due(design, grid, done))
      if (done.count(r.key) == 0) runs.push_back(std::move(r));
    if (runs.empty()) break;
    std::printf("%s: %zu runs in the grid, %zu refused, %zu due\n", folder.c_str(),
                grid.rows.size(), refusals.rows.size(), runs.size());
    std::fflush(stdout);
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
      for (std::size_t k; (k = next++) < runs.size();) {
        const planned_run& r = runs[k];
        scratch_folder out;
        std::vector<std::string> argv = r.argv;
        for (std::string& a : argv)
          for (std::size_t at; (at = a.find("{out}")) != std::string::npos;)
            a.replace(at, 5, out.path());
        const std::string messages = out.file("messages.txt");
        int error = 0;
        const int status = run_program(argv, "", messages, error);
        std::string said;
        {
          std::ifstream m(messages);
          said.assign(std::istreambuf_iterator<char>(m), std::istreambuf_iterator<char>());
        }
        std::lock_guard<std::mutex> hold(lock);
        if (status == 2) {
          append(refused_path, cli::joined(r.key) + "," + one_line(said).substr(0, 300) + "\n");
          std::printf("  refused: %s (%s)\n", r.label.c_str(), one_line(said).c_str());
        } else if (status == 0 || status == 1) {
          finished_run f;
          try {
            f = kind.collect(r, out);
          } catch (const cli::bad_input& e) {
            std::fprintf(stderr, "%s: %s\n", r.label.c_str(), e.message.c_str());
            failed = true;
            continue;
          }
          for (const auto& x : f.files) append(x.first, x.second);
          append(grid_path, cli::joined(r.key) + "," + f.fields + "\n");
          std::printf("  done: %s\n", r.label.c_str());
        } else {
          std::fprintf(stderr, "%s: %s exited %d%s\n%s", r.label.c_str(), argv[0].c_str(), status,
                       status < 0 ? (" (" + std::string(std::strerror(error)) + ")").c_str() : "",
                       said.c_str());
          failed = true;
        }
        std::fflush(stdout);
      }
    };
    std::vector<std::thread> threads;
    for (std::size_t j = 0; j < std::min(jobs, runs.size()); ++j) threads.emplace_back(work);
    for (std::thread& t : threads) t.join();
    if (failed) return 1;
  }
  return 0;
}

}  // namespace study

#endif  // INTERLOCK_EXAMPLES_STUDY_RUNNER_HPP
